package io.migd.reconcile;

import io.migd.execute.Execution;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.TargetResolver;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Decision;
import io.migd.plan.Planner;
import io.migd.profiles.GpuModel;
import io.migd.profiles.MigConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile: observe the GPUs, resolve the intent per GPU, decide, execute, observe again, and
 * end in one {@link Outcome}. Level-based: it never asks why it was called.
 */
public final class Reconciler {
  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

  private final NodeObserver observer;
  private final ModelSource models;
  private final Function<String, Optional<MigConfig>> configs;
  private final UsageSource usageSource;
  private final Executor executor;
  private final ProgressListener listener;
  private final GpuReset reset;
  private final RebootPolicy reboot;
  private final Clock clock;

  /** A reconciler over its collaborators; {@code configs} looks up a named config. */
  public Reconciler(
      NodeObserver observer,
      ModelSource models,
      Function<String, Optional<MigConfig>> configs,
      UsageSource usageSource,
      Executor executor,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot,
      Clock clock) {
    this.observer = observer;
    this.models = models;
    this.configs = configs;
    this.usageSource = usageSource;
    this.executor = executor;
    this.listener = listener;
    this.reset = reset;
    this.reboot = reboot;
    this.clock = clock;
  }

  /**
   * The reconciler the daemon runs, over one NVML session: NVML observation and catalogue, process
   * usage named by NVML, and the executor, all reporting progress to {@code listener}.
   */
  public static Reconciler over(
      io.migd.nvml.Nvml nvml,
      io.migd.profiles.GpuModelCatalog catalog,
      Function<String, Optional<MigConfig>> configs,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot) {
    return new Reconciler(
        new NodeObserver(nvml, catalog),
        new ModelSource(nvml, catalog),
        configs,
        new ProcessUsage(nvml::processName),
        new Executor(nvml, listener),
        listener,
        reset,
        reboot,
        Clock.systemUTC());
  }

  /** What the intent means on this node now: a target, or why there can be none, per GPU. */
  public sealed interface Resolution {
    /** The GPU should look like this. */
    record Target(GpuTarget target) implements Resolution {}

    /** The intent cannot apply to this GPU. */
    record Unreachable(String reason) implements Resolution {}
  }

  /** Resolves the intent against what was observed. */
  public SequencedMap<GpuIndex, Resolution> resolve(Desired desired, ObservedNode observed) {
    var result = new LinkedHashMap<GpuIndex, Resolution>();
    switch (desired.intent()) {
      case Desired.Intent.Nothing() -> {}
      case Desired.Intent.NamedConfig(var name) -> {
        Optional<MigConfig> config = configs.apply(name);
        if (config.isEmpty()) {
          for (ObservedGpu gpu : observed.gpus()) {
            result.put(
                gpu.index(),
                new Resolution.Unreachable(
                    "the config \"" + name + "\" is not in the config file"));
          }
        } else {
          TargetResolver.resolve(config.get(), observed)
              .forEach((gpu, target) -> result.put(gpu, new Resolution.Target(target)));
        }
      }
      case Desired.Intent.Layout(var gpus) -> {
        for (GpuTarget target : gpus) {
          boolean exists = observed.gpus().stream().anyMatch(g -> g.index().equals(target.gpu()));
          result.put(
              target.gpu(),
              exists
                  ? new Resolution.Target(target)
                  : new Resolution.Unreachable(
                      "GPU " + target.gpu() + " does not exist on this node"));
        }
      }
    }
    for (ObservedGpu gpu : observed.gpus()) {
      String recorded = desired.gpuUuids().get(gpu.index().value());
      if (result.containsKey(gpu.index()) && recorded != null && !recorded.equals(gpu.uuid())) {
        result.put(
            gpu.index(),
            new Resolution.Unreachable(
                "GPU "
                    + gpu.index()
                    + " is "
                    + gpu.uuid()
                    + " now, but the intent was made for "
                    + recorded
                    + "; migd does not reshape a GPU it was not asked about"));
      }
    }
    return result;
  }

  /** The decision for every GPU the intent selects, without changing anything. */
  public SequencedMap<GpuIndex, Decision> plan(Desired desired) {
    ObservedNode observed = observer.observe();
    Usage usage = usageSource.usage(observed);
    var decisions = new LinkedHashMap<GpuIndex, Decision>();
    resolve(desired, observed)
        .forEach((gpu, resolution) -> decisions.put(gpu, decide(resolution, gpu, observed, usage)));
    return decisions;
  }

  private Decision decide(Resolution resolution, GpuIndex gpu, ObservedNode observed, Usage usage) {
    return switch (resolution) {
      case Resolution.Unreachable(var reason) -> new Decision.Infeasible(reason);
      case Resolution.Target(var target) -> {
        ObservedGpu now = gpuOf(observed, gpu);
        Optional<GpuModel> model = models.modelOf(now);
        if (model.isEmpty() && target.migEnabled()) {
          yield new Decision.Infeasible(
              "GPU "
                  + gpu
                  + " ("
                  + now.name()
                  + ", PCI id "
                  + now.pci().deviceIdHex()
                  + ") is not a model migd knows");
        }
        yield Planner.decide(target, now, usage, model.orElseGet(() -> nonMigModel(now)));
      }
    };
  }

  /** A catalogue entry for a GPU migd does not know, enough to plan "MIG off". */
  private static GpuModel nonMigModel(ObservedGpu gpu) {
    return new GpuModel(
        gpu.name(),
        gpu.name(),
        gpu.pci().deviceId(),
        -1,
        new io.migd.profiles.ComputeCapability(0, 0),
        Math.max(1, gpu.memoryMiB()),
        1,
        false,
        0,
        java.util.List.of());
  }

  private static ObservedGpu gpuOf(ObservedNode node, GpuIndex gpu) {
    return node.gpus().stream()
        .filter(g -> g.index().equals(gpu))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("GPU " + gpu + " vanished"));
  }

  /** Observes, decides and executes per GPU, then observes again. */
  public Outcome reconcile(Desired desired) {
    ObservedNode observed = observer.observe();
    Usage usage = usageSource.usage(observed);
    var results = new LinkedHashMap<GpuIndex, GpuResult>();
    resolve(desired, observed)
        .forEach(
            (gpu, resolution) -> {
              GpuResult result = reconcileGpu(desired, resolution, gpu, observed, usage, true);
              results.put(gpu, result);
              log.info(
                  "gpu={} state={} generation={} reason=\"{}\"",
                  gpu,
                  result.state().wireName(),
                  desired.generation(),
                  result.reason());
            });
    return new Outcome(desired.generation(), results, clock.instant());
  }

  private GpuResult reconcileGpu(
      Desired desired,
      Resolution resolution,
      GpuIndex gpu,
      ObservedNode observed,
      Usage usage,
      boolean mayReset) {
    Decision decision = decide(resolution, gpu, observed, usage);
    return switch (decision) {
      case Decision.InSync() -> new GpuResult.InSync();
      case Decision.Infeasible(var reason) -> new GpuResult.Infeasible(reason);
      case Decision.Blocked(var holders, var reason) -> new GpuResult.Blocked(holders, reason);
      case Decision.Change(var plan) -> {
        listener.planMade(gpu, plan);
        Instant start = clock.instant();
        Execution execution = executor.execute(gpu, plan);
        yield switch (execution) {
          case Execution.Completed() -> verify(desired, resolution, gpu, plan, start);
          case Execution.StepFailed(var step, var cause) ->
              new GpuResult.Failed(
                  step, cause.code(), "step " + step + " failed: " + cause.getMessage());
          case Execution.ModeChangePending(var step, var activation) ->
              modeChangePending(desired, resolution, gpu, step, activation, mayReset);
        };
      }
    };
  }

  private GpuResult verify(
      Desired desired, Resolution resolution, GpuIndex gpu, io.migd.plan.Plan plan, Instant start) {
    ObservedNode after = new ObservedNode(java.util.List.of(observer.observe(gpu)));
    Decision again = decide(resolution, gpu, after, usageSource.usage(after));
    if (again instanceof Decision.InSync) {
      return new GpuResult.Applied(plan, Duration.between(start, clock.instant()));
    }
    return new GpuResult.Applying(
        "the plan ran but GPU " + gpu + " does not match yet (" + again + "); migd goes on");
  }

  /**
   * IN_USE: name the processes NVML reports; with none, a client NVML does not list holds the GPU
   * (such as nvidia-persistenced): try a reset, then decide again. RESET_REQUIRED: only a reboot
   * helps.
   */
  private GpuResult modeChangePending(
      Desired desired,
      Resolution resolution,
      GpuIndex gpu,
      io.migd.plan.Step step,
      NvmlReturn activation,
      boolean mayReset) {
    if (activation == NvmlReturn.RESET_REQUIRED) {
      String why =
          "GPU "
              + gpu
              + " needs a reboot to apply the pending MIG mode (the platform cannot reset"
              + " it, e.g. PCI passthrough)";
      if (reboot.enabled()) {
        if (reboot.requestReboot(desired.generation())) {
          return new GpuResult.Rebooting(why + "; a reboot was requested");
        }
        return new GpuResult.Rebooting(
            why + "; a reboot was already requested for generation " + desired.generation());
      }
      return new GpuResult.Failed(
          step,
          activation,
          why + "; reboots are disabled (migd.reboot.enabled=false): reboot the node");
    }
    ObservedGpu now = observer.observe(gpu);
    if (!now.processes().isEmpty()) {
      var holders = usageSource.usage(new ObservedNode(java.util.List.of(now))).holdersOf(gpu);
      return new GpuResult.AwaitingModeChange(
          holders,
          "MIG mode change on GPU "
              + gpu
              + " is pending: "
              + String.join(", ", holders)
              + " run on it; migd retries when they are gone");
    }
    GpuReset.Result result =
        mayReset ? reset.reset(now) : new GpuReset.Result(false, "the reset did not apply it");
    if (result.done()) {
      log.info("gpu={} reset to apply the pending MIG mode", gpu);
      ObservedNode after = new ObservedNode(java.util.List.of(observer.observe(gpu)));
      return reconcileGpu(desired, resolution, gpu, after, usageSource.usage(after), false);
    }
    return new GpuResult.AwaitingModeChange(
        java.util.List.of("a client NVML does not list"),
        "MIG mode change on GPU "
            + gpu
            + " is pending: a client that NVML does not list (such as"
            + " nvidia-persistenced or DCGM) holds the GPU, and a reset was not possible ("
            + result.detail()
            + "); migd retries when it lets go");
  }
}
