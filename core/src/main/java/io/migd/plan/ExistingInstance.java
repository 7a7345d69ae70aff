package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.Usage;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A GPU instance that exists, as the planner sees it: which catalogue profile and placement it
 * matches (-1 when none), its compute instances, and who uses it.
 *
 * @param live the instance as observed
 * @param rank its profile's position in the model's catalogue, or -1 if the model lacks it
 * @param placementIndex its placement's index among the profile's placements, or -1
 * @param computeInstances its compute instances in start order, each marked in use or not
 * @param holders who uses anything in it, without repeats
 */
record ExistingInstance(
    LiveGpuInstance live,
    int rank,
    int placementIndex,
    List<CiLayoutSearch.Existing> computeInstances,
    List<String> holders) {
  ExistingInstance {
    computeInstances = List.copyOf(computeInstances);
    holders = List.copyOf(holders);
  }

  /** The GPU instances of {@code observed}, in placement order. */
  static List<ExistingInstance> of(
      GpuIndex gpu, GpuModel model, List<LiveGpuInstance> observed, Usage usage) {
    var list = new ArrayList<ExistingInstance>(observed.size());
    for (LiveGpuInstance gi : observed) {
      int rank = rankOf(model, gi);
      int placementIndex =
          rank < 0 ? -1 : model.giProfiles().get(rank).placements().indexOf(gi.placement());
      var cis = new ArrayList<CiLayoutSearch.Existing>(gi.computeInstances().size());
      for (LiveComputeInstance ci : gi.computeInstances()) {
        cis.add(
            new CiLayoutSearch.Existing(
                ci.id(), ci.placement(), !usage.holdersOf(gpu, gi.id(), ci.id()).isEmpty()));
      }
      cis.sort(Comparator.comparingInt(CiLayoutSearch.Existing::start));
      var holders = new LinkedHashSet<>(usage.holdersOf(gpu, gi.id()));
      list.add(new ExistingInstance(gi, rank, placementIndex, cis, List.copyOf(holders)));
    }
    list.sort(Comparator.comparingInt(ExistingInstance::start));
    return List.copyOf(list);
  }

  boolean inUse() {
    return !holders.isEmpty();
  }

  int start() {
    return live.placement().start();
  }

  /**
   * For messages: {@code GPU instance 2 (4g.20gb at 0:4) compute instance 1 (2c.4g.20gb at 2:2) in
   * use by pod a/b}.
   */
  String describe() {
    var text =
        new StringBuilder("GPU instance ")
            .append(live.id())
            .append(" (")
            .append(live.profile())
            .append(" at ")
            .append(live.placement())
            .append(')');
    var inUseCis = computeInstances.stream().filter(CiLayoutSearch.Existing::inUse).toList();
    if (!inUseCis.isEmpty() && inUseCis.size() < computeInstances.size()) {
      text.append(inUseCis.size() > 1 ? " compute instances " : " compute instance ");
      text.append(
          String.join(
              ", ",
              inUseCis.stream()
                  .map(
                      ci ->
                          ci.id()
                              + " ("
                              + live.profile().computeInstance(ci.slices())
                              + " at "
                              + ci.placement()
                              + ")")
                  .toList()));
    }
    return text.append(" in use by ").append(String.join(", ", holders)).toString();
  }

  private static int rankOf(GpuModel model, LiveGpuInstance gi) {
    var profiles = model.giProfiles();
    for (int r = 0; r < profiles.size(); r++) {
      if (profiles.get(r).name().equals(gi.profile())) {
        return r;
      }
    }
    return -1;
  }
}
