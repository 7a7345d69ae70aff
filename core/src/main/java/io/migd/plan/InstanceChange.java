package io.migd.plan;

import io.migd.layout.GpuIndex;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans the GPU-instance and compute-instance changes that take a MIG-enabled GPU from the
 * instances it has to a checked target: keeps what it can, never removes anything in use, and
 * places everything it creates explicitly.
 */
final class InstanceChange {
  private final GpuIndex gpu;
  private final GpuModel model;
  private final List<Wanted> wanted;
  private final List<ExistingInstance> existing;
  private final int[] wantedCount;
  private final SearchSteps steps;

  private InstanceChange(
      GpuIndex gpu,
      GpuModel model,
      List<Wanted> wanted,
      List<LiveGpuInstance> observed,
      Usage usage,
      SearchSteps steps) {
    this.gpu = gpu;
    this.steps = steps;
    this.model = model;
    this.wanted = wanted;
    this.wantedCount = new int[model.giProfiles().size()];
    for (Wanted w : wanted) {
      wantedCount[w.rank()]++;
    }
    this.existing = ExistingInstance.of(gpu, model, observed, usage);
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
      List<Step> prefix,
      SearchSteps steps) {
    return new InstanceChange(gpu, model, wanted, observed, usage, steps).decide(prefix);
  }

  private Decision decide(List<Step> prefix) {
    Optional<Decision> blocked = InUseCheck.blocked(gpu, model, wanted, existing);
    if (blocked.isPresent()) {
      return blocked.get();
    }
    List<GiLayoutSearch.Group> groups = new ArrayList<>();
    List<Integer> groupRanks = new ArrayList<>();
    for (int r = 0; r < wantedCount.length; r++) {
      if (wantedCount[r] == 0) {
        continue;
      }
      long existingBits = 0;
      long forcedBits = 0;
      for (ExistingInstance e : existing) {
        if (e.rank() == r && e.placementIndex() >= 0) {
          existingBits |= 1L << e.placementIndex();
          if (e.inUse()) {
            forcedBits |= 1L << e.placementIndex();
          }
        }
      }
      GiProfile profile = model.giProfiles().get(r);
      groups.add(
          new GiLayoutSearch.Group(
              r, wantedCount[r], profile.placements(), existingBits, forcedBits));
      groupRanks.add(r);
    }
    GiLayoutSearch.Solution solution;
    switch (GiLayoutSearch.best(model.memorySlices(), groups, steps)) {
      case GiLayoutSearch.Answer.Found(var found) -> solution = found;
      case GiLayoutSearch.Answer.Cut() -> {
        return Decision.Failed.searchCut(TargetCheck.prefix(gpu, model) + steps.cutReason());
      }
      case GiLayoutSearch.Answer.None() -> {
        var inUse = existing.stream().filter(ExistingInstance::inUse).toList();
        return InUseCheck.blocked(
            gpu,
            model,
            inUse,
            "the target ("
                + TargetCheck.describe(wantedCount, model)
                + ") does not fit around the GPU instances in use: "
                + InUseCheck.describeAll(inUse));
      }
    }
    var kept = new ArrayList<ExistingInstance>();
    var created = new ArrayList<Placed>();
    for (int g = 0; g < groups.size(); g++) {
      int r = groupRanks.get(g);
      GiProfile profile = model.giProfiles().get(r);
      for (long bits = solution.chosen().get(g); bits != 0; bits &= bits - 1) {
        int index = Long.numberOfTrailingZeros(bits);
        Optional<ExistingInstance> there =
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

  private Decision steps(List<Step> prefix, List<ExistingInstance> kept, List<Placed> created) {
    kept.sort(Comparator.comparingInt(ExistingInstance::start));
    created.sort(Comparator.comparingInt(p -> p.placement().start()));
    var destroyCi = new ArrayList<Ordered>();
    var destroyGi = new ArrayList<Ordered>();
    var createGi = new ArrayList<Ordered>();
    var createCi = new ArrayList<Ordered>();
    destroyUnkept(kept, destroyCi, destroyGi);
    var leftOver = new ArrayList<>(wanted);
    resplitKept(kept, leftOver, destroyCi, createCi);
    createPlaced(created, leftOver, createGi, createCi);
    var steps = new ArrayList<Step>(prefix);
    for (var list : List.of(destroyCi, destroyGi, createGi, createCi)) {
      list.sort(Comparator.comparingInt(Ordered::giStart).thenComparingInt(Ordered::ciStart));
      list.forEach(o -> steps.add(o.step()));
    }
    return steps.isEmpty() ? new Decision.InSync() : new Decision.Change(new Plan(steps));
  }

  /** Every existing GPU instance not kept goes, its compute instances first. */
  private void destroyUnkept(
      List<ExistingInstance> kept, List<Ordered> destroyCi, List<Ordered> destroyGi) {
    Set<ExistingInstance> keptSet = Collections.newSetFromMap(new IdentityHashMap<>());
    keptSet.addAll(kept);
    for (ExistingInstance e : existing) {
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
  }

  /**
   * A kept GPU instance takes the split of a wanted one of its profile (taken off {@code
   * leftOver}): the compute instances that split lacks go, the ones it needs are created.
   */
  private void resplitKept(
      List<ExistingInstance> kept,
      List<Wanted> leftOver,
      List<Ordered> destroyCi,
      List<Ordered> createCi) {
    for (int r = 0; r < wantedCount.length; r++) {
      int rank = r;
      var keptHere = kept.stream().filter(e -> e.rank() == rank).toList();
      if (keptHere.isEmpty()) {
        continue;
      }
      var choices =
          InUseCheck.splits(model, wanted, keptHere, rank)
              .orElseThrow(() -> new IllegalStateException("no split for kept instances"));
      GiProfile profile = model.giProfiles().get(rank);
      for (int i = 0; i < keptHere.size(); i++) {
        ExistingInstance e = keptHere.get(i);
        var choice = choices.get(i);
        leftOver.remove(new Wanted(profile, rank, choice.split()));
        for (var ci : choice.result().destroyed()) {
          destroyCi.add(
              new Ordered(
                  e.start(),
                  ci.start(),
                  new Step.DestroyComputeInstance(gpu, e.live().id(), ci.id())));
        }
        for (var ci : choice.result().created()) {
          createCi.add(createComputeInstance(profile, e.live().placement(), ci));
        }
      }
    }
  }

  /** Each new GPU instance is created with the compute instances of a wanted one of its profile. */
  private void createPlaced(
      List<Placed> created, List<Wanted> leftOver, List<Ordered> createGi, List<Ordered> createCi) {
    for (Placed p : created) {
      Wanted w =
          leftOver.stream()
              .filter(x -> x.profile().name().equals(p.profile().name()))
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
          CiLayoutSearch.best(p.profile(), w.computeInstances(), List.of())
              .orElseThrow(() -> new IllegalStateException("checked split does not fit " + w));
      for (var ci : plan.created()) {
        createCi.add(createComputeInstance(p.profile(), p.placement(), ci));
      }
    }
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
        ci.placement().start(),
        new Step.CreateComputeInstance(
            gpu,
            giPlacement,
            profile.name().computeInstance(ci.slices()),
            ciProfile.id(),
            ci.placement()));
  }
}
