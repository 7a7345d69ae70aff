package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.SequencedSet;

/**
 * Which GPUs a reconcile or a dry run hands to the planner: of the node's GPUs and those the intent
 * names, every one but those that could not be observed or that the intent does not select, whose
 * decision is made here.
 */
final class GpuSelection {
  private GpuSelection() {}

  /** The node's GPUs, then any GPU the intent names that the node lacks, in that order. */
  static SequencedSet<GpuIndex> andResolved(
      ObservedNode observed, SequencedMap<GpuIndex, Resolution> resolutions) {
    var all = new LinkedHashSet<>(observed.indices());
    all.addAll(resolutions.keySet());
    return all;
  }

  /** The resolution of {@code gpu}: unselected when the intent does not name it. */
  static Resolution resolutionOf(SequencedMap<GpuIndex, Resolution> resolutions, GpuIndex gpu) {
    return resolutions.getOrDefault(gpu, new Resolution.Unselected());
  }

  /** The decision for a GPU that is not handed to the planner: unobserved, or not selected. */
  static Optional<Decision> unplanned(
      Desired desired, GpuIndex gpu, ObservedNode observed, Resolution resolution) {
    NvmlException unseen = observed.unobserved().get(gpu);
    if (unseen != null) {
      return Optional.of(
          mightSelect(desired, gpu)
              ? Decision.Failed.of("observing GPU " + gpu, unseen)
              : new Decision.Unmanaged());
    }
    return resolution instanceof Resolution.Unselected
        ? Optional.of(new Decision.Unmanaged())
        : Optional.empty();
  }

  /**
   * Whether the intent may select a GPU that could not be observed: a named config selects by
   * model, which is unknown then, so it counts as selected.
   */
  private static boolean mightSelect(Desired desired, GpuIndex gpu) {
    return switch (desired.intent()) {
      case Desired.Intent.Nothing() -> false;
      case Desired.Intent.NamedConfig(var name) -> true;
      case Desired.Intent.Layout(var targets) ->
          targets.stream().anyMatch(t -> t.gpu().equals(gpu));
    };
  }
}
