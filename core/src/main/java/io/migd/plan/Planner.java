package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Decides, for one GPU, what must change to bring it from what it is to what it should be.
 *
 * <p>The planner is a pure function: equal inputs give an equal {@link Decision}, whatever order
 * the target lists its GPU instances in. It changes only what must change (the layout that keeps
 * the most existing GPU instances, found by a complete search over placements), places every GPU
 * and compute instance it creates explicitly, and never plans to destroy an instance in use: a
 * change that needs one is {@link Decision.Blocked}. A target the GPU cannot hold is {@link
 * Decision.Infeasible}, whatever the GPU looks like now. The search is bounded ({@link
 * PlannerBound}); decisions on every GPU of the catalogue end far below the default bound.
 */
public final class Planner {
  private Planner() {}

  /**
   * The decision for one GPU.
   *
   * <p>Steps come in this order: a MIG mode change first when MIG must be enabled (or a pending
   * change cancelled), then every compute-instance destroy, every GPU-instance destroy, the
   * GPU-instance creates by placement start, the compute-instance creates by GPU-instance placement
   * then compute-instance start; {@link Step.DisableMig} comes last.
   *
   * @param desired what the GPU should look like
   * @param observed what it looks like now
   * @param usage which slices are in use, and by whom
   * @param model the GPU's model: its profiles and placements
   * @return {@link Decision.InSync} when nothing must change, else the plan, or why there is none
   */
  public static Decision decide(
      GpuTarget desired, ObservedGpu observed, Usage usage, GpuModel model) {
    return decide(desired, observed, usage, model, PlannerBound.DEFAULT);
  }

  /**
   * As {@link #decide(GpuTarget, ObservedGpu, Usage, GpuModel)}, with the placement search bounded
   * by {@code bound} ({@code migd.planner.max-steps}): at the bound the plan uses the best layout
   * found so far, and a search that found none is {@link Decision.Failed}.
   */
  public static Decision decide(
      GpuTarget desired, ObservedGpu observed, Usage usage, GpuModel model, PlannerBound bound) {
    return decide(desired, observed, usage, model, new SearchSteps(bound));
  }

  /** As {@link #decide(GpuTarget, ObservedGpu, Usage, GpuModel, PlannerBound)}, counting steps. */
  static Decision decide(
      GpuTarget desired, ObservedGpu observed, Usage usage, GpuModel model, SearchSteps steps) {
    Objects.requireNonNull(desired, "desired");
    Objects.requireNonNull(observed, "observed");
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(model, "model");
    GpuIndex gpu = desired.gpu();
    if (!gpu.equals(observed.index())) {
      throw new IllegalArgumentException(
          "target for GPU " + gpu + " decided against observed GPU " + observed.index());
    }
    boolean current = observed.migMode().current();
    if (current && observed.pci().deviceId() != model.pciDeviceId()) {
      return new Decision.Infeasible(
          TargetCheck.prefix(gpu, model)
              + "the GPU is "
              + observed.pci().deviceIdHex()
              + " ("
              + observed.name()
              + "), not this model ("
              + model.pciDeviceIdHex()
              + "); nothing is planned against the wrong placements");
    }
    if (!desired.migEnabled()) {
      return migDisabled(gpu, observed, usage, model);
    }
    if (!observed.migCapable() || !model.migCapable()) {
      return new Decision.Infeasible(
          TargetCheck.prefix(gpu, model)
              + "MIG is asked of a GPU without MIG; it can be shared by time-slicing instead");
    }
    return switch (TargetCheck.check(desired, model, steps)) {
      case TargetCheck.Result.Invalid(var reason) -> new Decision.Infeasible(reason);
      case TargetCheck.Result.Cut(var reason) -> Decision.Failed.searchCut(reason);
      case TargetCheck.Result.Valid(var wanted) -> {
        if (!current) {
          List<String> holders = distinct(usage.holdersOf(gpu));
          if (!holders.isEmpty()) {
            yield new Decision.Blocked(
                holders,
                TargetCheck.prefix(gpu, model)
                    + "enabling MIG needs the GPU free, but it is in use by "
                    + String.join(", ", holders));
          }
          yield InstanceChange.decide(
              gpu, model, wanted, List.of(), usage, List.of(new Step.EnableMig(gpu)), steps);
        }
        // MIG on with "off" pending: asking for the current mode cancels the pending change.
        List<Step> prefix =
            observed.migMode().pending() ? List.of() : List.of(new Step.EnableMig(gpu));
        yield InstanceChange.decide(
            gpu, model, wanted, observed.gpuInstances(), usage, prefix, steps);
      }
    };
  }

  private static Decision migDisabled(
      GpuIndex gpu, ObservedGpu observed, Usage usage, GpuModel model) {
    var mode = observed.migMode();
    if (!mode.current()) {
      return mode.pending()
          ? new Decision.Change(new Plan(List.of(new Step.DisableMig(gpu))))
          : new Decision.InSync();
    }
    List<String> holders = distinct(usage.holdersOf(gpu));
    if (!holders.isEmpty()) {
      return new Decision.Blocked(
          holders,
          TargetCheck.prefix(gpu, model)
              + "disabling MIG removes every instance, but the GPU is in use by "
              + String.join(", ", holders));
    }
    var gis = new ArrayList<>(observed.gpuInstances());
    gis.sort(Comparator.comparingInt(gi -> gi.placement().start()));
    var steps = new ArrayList<Step>();
    for (LiveGpuInstance gi : gis) {
      var cis = new ArrayList<>(gi.computeInstances());
      cis.sort(Comparator.comparingInt(ci -> ci.placement().start()));
      for (LiveComputeInstance ci : cis) {
        steps.add(new Step.DestroyComputeInstance(gpu, gi.id(), ci.id()));
      }
    }
    for (LiveGpuInstance gi : gis) {
      steps.add(new Step.DestroyGpuInstance(gpu, gi.id()));
    }
    steps.add(new Step.DisableMig(gpu));
    return new Decision.Change(new Plan(steps));
  }

  private static List<String> distinct(List<String> holders) {
    return List.copyOf(new LinkedHashSet<>(holders));
  }
}
