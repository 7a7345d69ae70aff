package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.plan.TargetCheck.Wanted;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * What in use stops a change, before any placement is tried: a GPU instance in use whose profile
 * the target lacks (or lacks enough of), or whose compute instances in use no wanted split of its
 * profile can hold. Placement around instances in use is the search's part.
 */
final class InUseCheck {
  private InUseCheck() {}

  /** The decision when something in use cannot stay whatever the placement, else empty. */
  static Optional<Decision> blocked(
      GpuIndex gpu, GpuModel model, List<Wanted> wanted, List<ExistingInstance> existing) {
    int[] wantedCount = new int[model.giProfiles().size()];
    wanted.forEach(w -> wantedCount[w.rank()]++);
    var blockers = new ArrayList<ExistingInstance>();
    var reasons = new ArrayList<String>();
    int[] inUseCount = new int[wantedCount.length];
    for (ExistingInstance e : existing) {
      if (!e.inUse()) {
        continue;
      }
      if (e.rank() < 0 || wantedCount[e.rank()] == 0 || e.placementIndex() < 0) {
        blockers.add(e);
        reasons.add("the target has no " + e.live().profile() + " for " + e.describe());
      } else {
        inUseCount[e.rank()]++;
      }
    }
    for (int r = 0; r < wantedCount.length; r++) {
      if (inUseCount[r] == 0) {
        continue;
      }
      int rank = r;
      var inUse = existing.stream().filter(e -> e.inUse() && e.rank() == rank).toList();
      var name = model.giProfiles().get(r).name();
      if (inUseCount[r] > wantedCount[r]) {
        blockers.addAll(inUse);
        reasons.add(
            "the target keeps "
                + wantedCount[r]
                + " × "
                + name
                + " but "
                + inUseCount[r]
                + " are in use: "
                + describeAll(inUse));
      } else if (splits(model, wanted, inUse, rank).isEmpty()) {
        blockers.addAll(inUse);
        reasons.add(
            "the compute instances the target asks of "
                + name
                + " cannot hold those in use in "
                + describeAll(inUse));
      }
    }
    return blockers.isEmpty()
        ? Optional.empty()
        : Optional.of(blocked(gpu, model, blockers, String.join("; ", reasons)));
  }

  /** The splits kept GPU instances of one profile take; empty when those in use allow none. */
  static Optional<List<SplitAssignment.Choice>> splits(
      GpuModel model, List<Wanted> wanted, List<ExistingInstance> kept, int rank) {
    return SplitAssignment.assign(
        model.giProfiles().get(rank),
        kept.stream().map(ExistingInstance::computeInstances).toList(),
        wanted.stream().filter(w -> w.rank() == rank).map(Wanted::computeInstances).toList());
  }

  /** Blocked by {@code blockers}, because {@code why}; names their holders. */
  static Decision blocked(
      GpuIndex gpu, GpuModel model, List<ExistingInstance> blockers, String why) {
    var holders = new LinkedHashSet<String>();
    blockers.forEach(e -> holders.addAll(e.holders()));
    return new Decision.Blocked(List.copyOf(holders), TargetCheck.prefix(gpu, model) + why);
  }

  static String describeAll(List<ExistingInstance> gis) {
    return String.join(", ", gis.stream().map(ExistingInstance::describe).toList());
  }
}
