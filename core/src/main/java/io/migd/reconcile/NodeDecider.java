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
import io.migd.plan.Plan;
import io.migd.plan.Planner;
import io.migd.plan.PlannerBound;
import io.migd.plan.Step;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GpuModel;
import io.migd.profiles.MigConfig;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
      case Desired.Intent.NamedConfig(var name) -> resolveNamed(desired, name, observed, result);
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
    if (ownership.dra()) {
      ownership
          .partitionable()
          .unavailable()
          .ifPresent(why -> result.replaceAll((gpu, r) -> staticHere(gpu, r, why)));
    }
    keepLayoutsOnTheirGpus(desired, observed, result);
    return result;
  }

  /** The targets of the named config {@code name}, or why the GPUs cannot have any. */
  private void resolveNamed(
      Desired desired, String name, ObservedNode observed, Map<GpuIndex, Resolution> result) {
    ConfigLookup configs = this.configs.forIntent(desired);
    Optional<MigConfig> config = configs.config(name);
    if (configs.problem().isPresent()) {
      for (ObservedGpu gpu : observed.gpus()) {
        result.put(
            gpu.index(),
            new Resolution.Unreachable(
                configs.problem().get() + "; nothing on the GPUs changes until the file is fixed"));
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
      SharingDefaults defaults = ownership.dra() ? SharingDefaults.NONE : configs.sharingDefaults();
      TargetResolver.resolve(config.get(), observed, !ownership.dra(), defaults)
          .forEach(
              (gpu, target) ->
                  result.put(
                      gpu,
                      new Resolution.Target(
                          target,
                          notes(
                              desired.replaced().getOrDefault(gpu.value(), ""),
                              TargetResolver.overriddenDefaults(
                                  config.get(), gpuOf(observed, gpu), defaults)))));
    }
  }

  /**
   * A named config applies to the GPUs present; an explicit layout is bound to the GPUs it was made
   * for: a target on a GPU that is another one now becomes unreachable.
   */
  private static void keepLayoutsOnTheirGpus(
      Desired desired, ObservedNode observed, Map<GpuIndex, Resolution> result) {
    for (ObservedGpu gpu : observed.gpus()) {
      String recorded = desired.gpuUuids().get(gpu.index().value());
      if (!desired.followsReplacedGpus()
          && result.get(gpu.index()) instanceof Resolution.Target
          && recorded != null
          && !recorded.equals(gpu.uuid())) {
        result.put(
            gpu.index(),
            new Resolution.Unreachable(
                "GPU "
                    + gpu.index()
                    + " is "
                    + gpu.uuid()
                    + " now, but the intent was made for "
                    + recorded
                    + "; an explicit layout is never applied to another GPU (a named config"
                    + " is)"));
      }
    }
  }

  /** Two notes of a GPU's reason as one, either possibly empty. */
  private static String notes(String first, String second) {
    return first.isEmpty() || second.isEmpty() ? first + second : first + "; " + second;
  }

  /**
   * A dynamic target where the cluster takes no partitionable devices: the GPU keeps the layout it
   * has (no MIG mode change, no reset) and is published as static, its reason saying why.
   */
  private static Resolution staticHere(GpuIndex gpu, Resolution resolution, String why) {
    return resolution instanceof Resolution.Target(var target, _) && target.dynamic()
        ? new Resolution.Unreachable(
            "GPU "
                + gpu
                + " is dynamic, but dynamic GPUs cannot be published here ("
                + why
                + "): it keeps the layout it has (no MIG mode change, no reset) and is published as"
                + " static")
        : resolution;
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
      case Resolution.Target(var target, _) when target.shares() && !ownership.dra() ->
          new Decision.Infeasible(
              "GPU "
                  + gpu
                  + ": shares need migd.kubelet.mode=dra (a share is a claim's part of a device's"
                  + " memory and compute, which only DRA's consumable capacity can ask for)");
      case Resolution.Target(var target, _) when target.dynamic() && !ownership.dra() ->
          new Decision.Infeasible(
              "GPU "
                  + gpu
                  + ": dynamic needs migd.kubelet.mode=dra (the device plugin cannot make"
                  + " instances when pods are scheduled)");
      case Resolution.Target(var target, _) when ownership.dra() && target.replicated() ->
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
          yield unknownProfiles(target, now);
        }
        plannerRuns.increment();
        yield target.dynamic()
            ? DynamicPlanner.decide(
                target, now, usage, model.orElseThrow(), ownership.claims().on(gpu))
            : Planner.decide(target, now, usage, model.orElseGet(() -> nonMigModel(now)), bound);
      }
    };
  }

  /**
   * A MIG target for a GPU whose profiles neither NVML nor the catalogue lists: MIG off on a model
   * the catalogue lacks, with a driver that answers no profile query then (DESIGN section 2). MIG
   * enabled without instances ({@code all-enabled}) still applies, and the next reconcile reads the
   * profiles; anything else waits for them.
   */
  private static Decision unknownProfiles(GpuTarget target, ObservedGpu now) {
    String gpu = "GPU " + now.index() + " (" + now.name() + ", PCI id " + now.pci().deviceIdHex();
    if (!now.migCapable()) {
      return new Decision.Infeasible(gpu + ") has no MIG");
    }
    if (target.dynamic() || !target.gpuInstances().isEmpty()) {
      return new Decision.Infeasible(
          gpu
              + "): profiles unknown until MIG is enabled (the built-in catalogue lacks the model"
              + " and NVML lists no profile with MIG off); all-enabled enables it");
    }
    return now.migMode().current() && !now.migMode().changePending()
        ? new Decision.InSync()
        : new Decision.Change(new Plan(List.of(new Step.EnableMig(now.index()))));
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
