package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.Usage;
import io.migd.plan.TargetCheck.Wanted;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plans the GPU-instance and compute-instance changes that take a MIG-enabled GPU from the
 * instances it has to a checked target: keeps what it can, never removes anything in use, and
 * places everything it creates explicitly.
 */
final class InstanceChange {
  /** An existing GPU instance as the search sees it. */
  private record Existing(
      LiveGpuInstance live,
      int rank,
      int placementIndex,
      List<CiLayoutSearch.Existing> computeInstances,
      List<String> holders) {
    boolean inUse() {
      return !holders.isEmpty();
    }

    int start() {
      return live.placement().start();
    }
  }

  private final GpuIndex gpu;
  private final GpuModel model;
  private final List<Wanted> wanted;
  private final List<Existing> existing;
  private final int[] wantedCount;

  private InstanceChange(
      GpuIndex gpu,
      GpuModel model,
      List<Wanted> wanted,
      List<LiveGpuInstance> observed,
      Usage usage) {
    this.gpu = gpu;
    this.model = model;
    this.wanted = wanted;
    this.wantedCount = new int[model.giProfiles().size()];
    for (Wanted w : wanted) {
      wantedCount[w.rank()]++;
    }
    var list = new ArrayList<Existing>(observed.size());
    for (LiveGpuInstance gi : observed) {
      int rank = rankOf(gi);
      int placementIndex =
          rank < 0 ? -1 : model.giProfiles().get(rank).placements().indexOf(gi.placement());
      var cis = new ArrayList<CiLayoutSearch.Existing>(gi.computeInstances().size());
      for (LiveComputeInstance ci : gi.computeInstances()) {
        cis.add(
            new CiLayoutSearch.Existing(
                ci.id(),
                ci.placement().size(),
                ci.placement().start(),
                !usage.holdersOf(gpu, gi.id(), ci.id()).isEmpty()));
      }
      cis.sort(Comparator.comparingInt(CiLayoutSearch.Existing::start));
      list.add(
          new Existing(gi, rank, placementIndex, cis, distinct(usage.holdersOf(gpu, gi.id()))));
    }
    list.sort(Comparator.comparingInt(Existing::start));
    this.existing = List.copyOf(list);
  }

  /**
   * The decision for a MIG-enabled GPU (or one about to be: {@code observed} empty), with {@code
   * prefix} (a MIG mode step) before the instance steps.
   */
  static Decision decide(
      GpuIndex gpu,
      GpuModel model,
      List<Wanted> wanted,
      List<LiveGpuInstance> observed,
      Usage usage,
      List<Step> prefix) {
    return new InstanceChange(gpu, model, wanted, observed, usage).decide(prefix);
  }

  private Decision decide(List<Step> prefix) {
    Optional<Decision> blocked = blockedByUse();
    if (blocked.isPresent()) {
      return blocked.get();
    }
    List<GiLayoutSearch.Group> groups = new ArrayList<>();
    List<Integer> groupRanks = new ArrayList<>();
    for (int r = 0; r < wantedCount.length; r++) {
      if (wantedCount[r] == 0) {
        continue;
      }
      int existingBits = 0;
      int forcedBits = 0;
      for (Existing e : existing) {
        if (e.rank() == r && e.placementIndex() >= 0) {
          existingBits |= 1 << e.placementIndex();
          if (e.inUse()) {
            forcedBits |= 1 << e.placementIndex();
          }
        }
      }
      GiProfile profile = model.giProfiles().get(r);
      groups.add(
          new GiLayoutSearch.Group(
              r, wantedCount[r], profile.placements(), existingBits, forcedBits));
      groupRanks.add(r);
    }
    Optional<GiLayoutSearch.Solution> solution = GiLayoutSearch.best(model.memorySlices(), groups);
    if (solution.isEmpty()) {
      var inUse = existing.stream().filter(Existing::inUse).toList();
      return blocked(
          inUse,
          "the target ("
              + TargetCheck.describe(wantedCount, model)
              + ") does not fit around the GPU instances in use: "
              + describeAll(inUse));
    }
    var kept = new ArrayList<Existing>();
    var created = new ArrayList<Placed>();
    for (int g = 0; g < groups.size(); g++) {
      int r = groupRanks.get(g);
      GiProfile profile = model.giProfiles().get(r);
      for (int bits = solution.get().chosen().get(g); bits != 0; bits &= bits - 1) {
        int index = Integer.numberOfTrailingZeros(bits);
        Optional<Existing> there =
            existing.stream().filter(e -> e.rank() == r && e.placementIndex() == index).findFirst();
        if (there.isPresent()) {
          kept.add(there.get());
        } else {
          created.add(new Placed(profile, profile.placements().get(index)));
        }
      }
    }
    return steps(prefix, kept, created);
  }

  /** A GPU instance the plan creates. */
  private record Placed(GiProfile profile, Placement placement) {}

  private Decision steps(List<Step> prefix, List<Existing> kept, List<Placed> created) {
    kept.sort(Comparator.comparingInt(Existing::start));
    created.sort(Comparator.comparingInt(p -> p.placement().start()));
    var destroyCi = new ArrayList<Ordered>();
    var destroyGi = new ArrayList<Ordered>();
    var createGi = new ArrayList<Ordered>();
    var createCi = new ArrayList<Ordered>();
    Set<Existing> keptSet = Collections.newSetFromMap(new IdentityHashMap<>());
    keptSet.addAll(kept);
    for (Existing e : existing) {
      if (!keptSet.contains(e)) {
        for (var ci : e.computeInstances()) {
          destroyCi.add(
              new Ordered(
                  e.start(),
                  ci.start(),
                  new Step.DestroyComputeInstance(gpu, e.live().id(), ci.id())));
        }
        destroyGi.add(new Ordered(e.start(), 0, new Step.DestroyGpuInstance(gpu, e.live().id())));
      }
    }
    Map<Existing, CiLayoutSearch.Result> keptPlans = new IdentityHashMap<>();
    var leftOver = new ArrayList<>(wanted);
    for (int r = 0; r < wantedCount.length; r++) {
      int rank = r;
      var keptHere = kept.stream().filter(e -> e.rank() == rank).toList();
      if (!keptHere.isEmpty()) {
        Map<Existing, Assignment> assigned =
            assign(keptHere, wanted.stream().filter(w -> w.rank() == rank).toList())
                .orElseThrow(() -> new IllegalStateException("no assignment for kept instances"));
        assigned.forEach(
            (e, a) -> {
              keptPlans.put(e, a.result());
              leftOver.remove(a.wanted());
            });
      }
    }
    for (Existing e : kept) {
      var plan = keptPlans.get(e);
      GiProfile profile = model.giProfiles().get(e.rank());
      for (var ci : plan.destroyed()) {
        destroyCi.add(
            new Ordered(
                e.start(),
                ci.start(),
                new Step.DestroyComputeInstance(gpu, e.live().id(), ci.id())));
      }
      for (var ci : plan.created()) {
        createCi.add(createComputeInstance(profile, e.live().placement(), ci));
      }
    }
    for (Placed p : created) {
      Wanted w =
          leftOver.stream()
              .filter(x -> x.profile().equals(p.profile()))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no spec for " + p));
      leftOver.remove(w);
      createGi.add(
          new Ordered(
              p.placement().start(),
              0,
              new Step.CreateGpuInstance(
                  gpu, p.profile().name(), p.profile().id(), p.placement())));
      var plan =
          CiLayoutSearch.best(p.profile().slices(), w.computeInstances(), List.of())
              .orElseThrow(() -> new IllegalStateException("checked split does not fit " + w));
      for (var ci : plan.created()) {
        createCi.add(createComputeInstance(p.profile(), p.placement(), ci));
      }
    }
    var steps = new ArrayList<Step>(prefix);
    for (var list : List.of(destroyCi, destroyGi, createGi, createCi)) {
      list.sort(Comparator.comparingInt(Ordered::giStart).thenComparingInt(Ordered::ciStart));
      list.forEach(o -> steps.add(o.step()));
    }
    return steps.isEmpty() ? new Decision.InSync() : new Decision.Change(new Plan(steps));
  }

  private record Ordered(int giStart, int ciStart, Step step) {}

  private Ordered createComputeInstance(
      GiProfile profile, Placement giPlacement, CiLayoutSearch.Created ci) {
    var ciProfile =
        profile
            .ciProfileBySlices(ci.slices())
            .orElseThrow(() -> new IllegalStateException("checked split lacks " + ci));
    return new Ordered(
        giPlacement.start(),
        ci.start(),
        new Step.CreateComputeInstance(
            gpu,
            giPlacement,
            TargetCheck.computeInstanceName(profile.name(), ci.slices()),
            ciProfile.id(),
            new Placement(ci.start(), ci.slices())));
  }

  /** Which wanted GPU instance a kept one becomes, and how its compute instances change. */
  private record Assignment(Wanted wanted, CiLayoutSearch.Result result) {}

  /**
   * Gives each kept GPU instance of one profile a distinct wanted one of that profile, keeping as
   * many existing compute instances as possible; empty when the compute instances in use allow
   * none. Wanted instances with equal compute instances are interchangeable, so each kept instance
   * chooses among the distinct splits only.
   */
  private Optional<Map<Existing, Assignment>> assign(List<Existing> gis, List<Wanted> specs) {
    var splits = new ArrayList<Wanted>();
    var left = new ArrayList<Integer>();
    for (Wanted w : specs) {
      int at = -1;
      for (int i = 0; i < splits.size(); i++) {
        if (splits.get(i).computeInstances().equals(w.computeInstances())) {
          at = i;
        }
      }
      if (at < 0) {
        splits.add(w);
        left.add(1);
      } else {
        left.set(at, left.get(at) + 1);
      }
    }
    var options = new ArrayList<List<Optional<CiLayoutSearch.Result>>>();
    for (Existing e : gis) {
      var row = new ArrayList<Optional<CiLayoutSearch.Result>>();
      for (Wanted w : splits) {
        row.add(
            CiLayoutSearch.best(w.profile().slices(), w.computeInstances(), e.computeInstances()));
      }
      options.add(row);
    }
    int[] counts = left.stream().mapToInt(Integer::intValue).toArray();
    int[] choice = new int[gis.size()];
    int[] best = new int[gis.size()];
    int[] bestKept = {-1};
    assign(0, 0, options, counts, choice, best, bestKept);
    if (bestKept[0] < 0) {
      return Optional.empty();
    }
    var result = new IdentityHashMap<Existing, Assignment>();
    for (int i = 0; i < gis.size(); i++) {
      var option = options.get(i).get(best[i]).orElseThrow();
      result.put(gis.get(i), new Assignment(splits.get(best[i]), option));
    }
    return Optional.of(result);
  }

  private static void assign(
      int i,
      int keptSoFar,
      List<List<Optional<CiLayoutSearch.Result>>> options,
      int[] counts,
      int[] choice,
      int[] best,
      int[] bestKept) {
    if (i == options.size()) {
      if (keptSoFar > bestKept[0]) {
        bestKept[0] = keptSoFar;
        System.arraycopy(choice, 0, best, 0, choice.length);
      }
      return;
    }
    for (int s = 0; s < counts.length; s++) {
      var option = options.get(i).get(s);
      if (counts[s] == 0 || option.isEmpty()) {
        continue;
      }
      counts[s]--;
      choice[i] = s;
      assign(
          i + 1, keptSoFar + option.get().kept().size(), options, counts, choice, best, bestKept);
      counts[s]++;
    }
  }

  /**
   * Blocked when something in use cannot stay whatever the placement: a GPU instance in use whose
   * profile the target lacks (or lacks enough of), or whose compute instances in use no wanted
   * split of its profile can hold.
   */
  private Optional<Decision> blockedByUse() {
    var blockers = new ArrayList<Existing>();
    var reasons = new ArrayList<String>();
    int[] inUseCount = new int[wantedCount.length];
    for (Existing e : existing) {
      if (!e.inUse()) {
        continue;
      }
      if (e.rank() < 0 || wantedCount[e.rank()] == 0 || e.placementIndex() < 0) {
        blockers.add(e);
        reasons.add("the target has no " + e.live().profile() + " for " + describe(e));
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
      } else if (assign(inUse, wanted.stream().filter(w -> w.rank() == rank).toList()).isEmpty()) {
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
        : Optional.of(blocked(blockers, String.join("; ", reasons)));
  }

  private Decision blocked(List<Existing> blockers, String why) {
    var holders = new LinkedHashSet<String>();
    blockers.forEach(e -> holders.addAll(e.holders()));
    return new Decision.Blocked(
        List.copyOf(holders), TargetCheck.prefix(gpu, model) + why + "; nothing was changed");
  }

  private static String describeAll(List<Existing> gis) {
    return String.join(", ", gis.stream().map(InstanceChange::describe).toList());
  }

  private static String describe(Existing e) {
    var live = e.live();
    var text =
        new StringBuilder("GPU instance ")
            .append(live.id())
            .append(" (")
            .append(live.profile())
            .append(" at ")
            .append(live.placement())
            .append(')');
    var inUseCis = e.computeInstances().stream().filter(CiLayoutSearch.Existing::inUse).toList();
    if (!inUseCis.isEmpty() && inUseCis.size() < e.computeInstances().size()) {
      text.append(" compute instance");
      text.append(inUseCis.size() > 1 ? "s " : " ");
      text.append(
          String.join(
              ", ",
              inUseCis.stream()
                  .map(
                      ci ->
                          ci.id()
                              + " ("
                              + TargetCheck.computeInstanceName(live.profile(), ci.slices())
                              + " at "
                              + ci.start()
                              + ":"
                              + ci.slices()
                              + ")")
                  .toList()));
    }
    return text.append(" in use by ").append(String.join(", ", e.holders())).toString();
  }

  private int rankOf(LiveGpuInstance gi) {
    var profiles = model.giProfiles();
    for (int r = 0; r < profiles.size(); r++) {
      if (profiles.get(r).name().equals(gi.profile())) {
        return r;
      }
    }
    return -1;
  }

  private static List<String> distinct(List<String> holders) {
    return List.copyOf(new LinkedHashSet<>(holders));
  }
}
