package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ModelSource;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.SharingDefaults;
import io.migd.layout.TargetResolver;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import io.migd.plan.DynamicPlanner;
import io.migd.plan.Planner;
import io.migd.plan.PlannerBound;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GpuModel;
import io.migd.profiles.MigConfig;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * migd's one decision path: what an intent means for each GPU of the node as observed (its target,
 * or why it can have none), and the planner's decision for it, with the GPU's profiles from NVML
 * first and the built-in catalogue as fallback ({@link ModelSource}, DESIGN section 2). The
 * reconcile loop, {@code PUT /api/v1/layout} (its check and its answer), dry runs, {@code GET
 * /api/v1/configs} and {@code migd plan} all decide here, through the {@link Reconciler}.
 */
final class NodeDecider {
  private final ConfigLookup configs;
  private final ModelSource models;
  private final DeviceOwnership ownership;
  private final PlannerBound bound;
  private final LongAdder plannerRuns = new LongAdder();

  NodeDecider(
      ConfigLookup configs, ModelSource models, DeviceOwnership ownership, PlannerBound bound) {
    this.configs = configs;
    this.bound = bound;
    this.models = models;
    this.ownership = ownership;
  }

  /**
   * Whether {@code gpu}, dynamic before and static now, still has claims prepared on it (DRA mode):
   * its unprepared devices are withdrawn and it stays blocked until they are gone.
   */
  boolean turningStatic(GpuIndex gpu, Resolution resolution) {
    return ownership.dra()
        && resolution instanceof Resolution.Target(var target, _)
        && !target.dynamic()
        && DynamicSwitches.turningStatic(gpu, ownership.claims());
  }

  /** How often the planner ran since this decider was made. */
  long plannerRuns() {
    return plannerRuns.sum();
  }

  /** Resolves the intent against what was observed: a target, or why there can be none, per GPU. */
  SequencedMap<GpuIndex, Resolution> resolve(Desired desired, ObservedNode observed) {
    var result = new LinkedHashMap<GpuIndex, Resolution>();
    switch (desired.intent()) {
      case Desired.Intent.Nothing() -> {}
      case Desired.Intent.NamedConfig(var name) -> {
        ConfigLookup configs = this.configs.forIntent(desired);
        Optional<MigConfig> config = configs.config(name);
        if (configs.problem().isPresent()) {
          for (ObservedGpu gpu : observed.gpus()) {
            result.put(
                gpu.index(),
                new Resolution.Unreachable(
                    configs.problem().get()
                        + "; nothing on the GPUs changes until the file is fixed"));
          }
        } else if (config.isEmpty()) {
          for (ObservedGpu gpu : observed.gpus()) {
            result.put(
                gpu.index(),
                new Resolution.Unreachable(
                    "the config \""
                        + name
                        + "\" is not in the config file; set nvidia.com/mig.config (or"
                        + " migd.config) to a config the file has"));
          }
        } else {
          // dra mode shares nothing; a device-plugin config is the device plugin's
          SharingDefaults defaults =
              ownership.dra() ? SharingDefaults.NONE : configs.sharingDefaults();
          TargetResolver.resolve(config.get(), observed, !ownership.dra(), defaults)
              .forEach(
                  (gpu, target) ->
                      result.put(
                          gpu,
                          new Resolution.Target(
                              target,
                              TargetResolver.overriddenDefaults(
                                  config.get(), gpuOf(observed, gpu), defaults))));
        }
      }
      case Desired.Intent.Layout(var gpus) -> {
        for (GpuTarget target : gpus) {
          boolean exists = observed.gpus().stream().anyMatch(g -> g.index().equals(target.gpu()));
          result.put(
              target.gpu(),
              exists
                  ? new Resolution.Target(target)
                  : new Resolution.Unreachable(outOfRange(target.gpu(), observed)));
        }
      }
    }
    if (!ownership.dra() && configs.problem().isEmpty()) {
      for (ObservedGpu gpu : observed.gpus()) {
        if (!result.containsKey(gpu.index())) {
          result.put(gpu.index(), unselected(gpu, configs.sharingDefaults()));
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

  /**
   * A GPU the intent does not select, shared as NVIDIA's device-plugin config says: whole while its
   * MIG mode is off, else the slices of each profile it holds now.
   */
  private static Resolution unselected(ObservedGpu gpu, SharingDefaults defaults) {
    var slices = new LinkedHashMap<ProfileName, Sharing>();
    if (gpu.migMode().current()) {
      gpu.gpuInstances().stream()
          .flatMap(gi -> gi.computeInstances().stream())
          .forEach(ci -> defaults.slices(ci.profile()).ifPresent(s -> slices.put(ci.profile(), s)));
    }
    return new Resolution.Unselected(defaults.wholeGpu().orElse(new Sharing.TimeSliced(1)), slices);
  }

  /** The reason a layout for a GPU the node lacks cannot apply, naming the GPUs it has. */
  private static String outOfRange(GpuIndex gpu, ObservedNode observed) {
    return "GPU index "
        + gpu
        + " is out of range: this node has GPUs "
        + observed.gpus().stream().map(g -> g.index().toString()).collect(Collectors.joining(", "));
  }

  /**
   * What one GPU needs, without changing anything: the planner's decision over the GPU's model as
   * NVML reports it (the catalogue's when NVML does not answer).
   *
   * @throws NvmlException when NVML fails while the GPU's profiles are read
   */
  Decision decide(Resolution resolution, GpuIndex gpu, ObservedNode observed, Usage usage) {
    return switch (resolution) {
      case Resolution.Unselected _ -> new Decision.Unmanaged();
      case Resolution.Unreachable(var reason) -> new Decision.Infeasible(reason);
      case Resolution.Target(var target, _) when target.dynamic() && !ownership.dra() ->
          new Decision.Infeasible(
              "GPU "
                  + gpu
                  + ": dynamic needs migd.kubelet.mode=dra (the device plugin cannot make"
                  + " instances when pods are scheduled)");
      case Resolution.Target(var target, _) when ownership.dra() && target.shares() ->
          new Decision.Infeasible(
              "GPU "
                  + gpu
                  + ": sharing is not available in dra mode (time-slicing, mps and sharing need"
                  + " migd.kubelet.mode=device-plugin)");
      case Resolution.Target(var target, _) when turningStatic(gpu, resolution) -> {
        var claims =
            ownership.claims().on(gpu).stream().map(d -> d.key().holder()).distinct().toList();
        yield new Decision.Blocked(
            claims,
            "GPU "
                + gpu
                + " turns from dynamic to static: its unprepared devices are withdrawn, and its"
                + " layout waits until no claim is prepared on it ("
                + String.join(", ", claims)
                + ")");
      }
      case Resolution.Target(var target, _) -> {
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
        plannerRuns.increment();
        yield target.dynamic()
            ? DynamicPlanner.decide(
                target, now, usage, model.orElseThrow(), ownership.claims().on(gpu))
            : Planner.decide(target, now, usage, model.orElseGet(() -> nonMigModel(now)), bound);
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
        new ComputeCapability(0, 0),
        Math.max(1, gpu.memoryMiB()),
        1,
        false,
        0,
        List.of());
  }

  private static ObservedGpu gpuOf(ObservedNode node, GpuIndex gpu) {
    return node.gpus().stream()
        .filter(g -> g.index().equals(gpu))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("GPU " + gpu + " vanished"));
  }
}
