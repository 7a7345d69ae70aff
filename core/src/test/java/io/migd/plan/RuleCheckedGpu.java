package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * A pure Java model of one GPU's MIG state for tests, written apart from the planner. It enforces
 * the placement rules the simulated driver enforces at every create, and refuses destroys of
 * instances that are missing, (GPU instances) still hold compute instances, or are in use. Like the
 * driver, it numbers a GPU instance by its placement, so one re-created where it was gets its old
 * id back: a plan cannot tell a kept instance from a re-created one by id.
 */
final class RuleCheckedGpu {
  private static final class Gi {
    final int id;
    final GiProfile profile;
    final Placement placement;
    final TreeMap<Integer, LiveComputeInstance> cis = new TreeMap<>();

    Gi(int id, GiProfile profile, Placement placement) {
      this.id = id;
      this.profile = profile;
      this.placement = placement;
    }
  }

  private final GpuModel model;
  private final GpuIndex gpu;
  private final TreeMap<Integer, Gi> gis = new TreeMap<>();
  private boolean migEnabled;
  private Usage usage = Usage.NONE;

  RuleCheckedGpu(GpuModel model, GpuIndex gpu, boolean migEnabled) {
    this.model = model;
    this.gpu = gpu;
    this.migEnabled = migEnabled;
  }

  /** A GPU in the state {@code observed} shows (which must itself obey the rules). */
  static RuleCheckedGpu of(GpuModel model, ObservedGpu observed) {
    var result = new RuleCheckedGpu(model, observed.index(), observed.migMode().current());
    for (LiveGpuInstance live : observed.gpuInstances()) {
      GiProfile profile = model.giProfile(live.profile()).orElseThrow();
      result.check(profile, live.placement());
      var gi = new Gi(live.id(), profile, live.placement());
      result.gis.put(live.id(), gi);
      for (LiveComputeInstance ci : live.computeInstances()) {
        result.checkCi(gi, ci.placement(), ci.profileId(), ci.profile());
        gi.cis.put(ci.id(), ci);
      }
    }
    return result;
  }

  /** The same GPU, refusing to destroy what {@code inUse} holds, as the driver answers IN_USE. */
  RuleCheckedGpu inUse(Usage inUse) {
    this.usage = inUse;
    return this;
  }

  void apply(Plan plan) {
    plan.steps().forEach(this::apply);
  }

  void apply(Step step) {
    if (!step.gpu().equals(gpu)) {
      throw new AssertionError("step for another GPU: " + step);
    }
    switch (step) {
      case Step.EnableMig _ -> setMig(true);
      case Step.DisableMig _ -> setMig(false);
      case Step.DestroyComputeInstance(var _, var giId, var ciId) -> {
        Gi gi = existing(giId);
        if (!usage.holdersOf(gpu, giId, ciId).isEmpty()) {
          throw new AssertionError("compute instance " + ciId + " of " + giId + " is in use");
        }
        if (gi.cis.remove(ciId) == null) {
          throw new AssertionError("no compute instance " + ciId + " in GPU instance " + giId);
        }
      }
      case Step.DestroyGpuInstance(var _, var giId) -> {
        Gi gi = existing(giId);
        if (!gi.cis.isEmpty()) {
          throw new AssertionError("GPU instance " + giId + " still holds compute instances");
        }
        if (!usage.holdersOf(gpu, giId).isEmpty()) {
          throw new AssertionError("GPU instance " + giId + " is in use");
        }
        gis.remove(giId);
      }
      case Step.CreateGpuInstance(var _, var name, var profileId, var placement) -> {
        requireMig();
        GiProfile profile = model.giProfile(name).orElseThrow(() -> new AssertionError(name));
        if (!profile.name().equals(name) || profile.id() != profileId) {
          throw new AssertionError("profile " + name + " id " + profileId + " is not " + profile);
        }
        check(profile, placement);
        int id = idAt(placement);
        if (gis.containsKey(id)) {
          throw new AssertionError("GPU instance id " + id + " of " + placement + " is taken");
        }
        gis.put(id, new Gi(id, profile, placement));
      }
      case Step.CreateComputeInstance(var _, var giPlacement, var name, var profileId, var at) -> {
        Gi gi =
            gis.values().stream()
                .filter(g -> g.placement.equals(giPlacement))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no GPU instance at " + giPlacement));
        checkCi(gi, at, profileId, name);
        int id = 0;
        while (gi.cis.containsKey(id)) {
          id++;
        }
        gi.cis.put(id, new LiveComputeInstance(id, profileId, name, at, "MIG-" + gi.id + "-" + id));
      }
    }
  }

  /**
   * The id a GPU instance created at {@code placement} gets: fixed by the placement, as the driver
   * numbers partitions, and apart from the small ids tests give observed instances.
   */
  private int idAt(Placement placement) {
    return 100 + placement.start() * (model.memorySlices() + 1) + placement.size();
  }

  private void setMig(boolean on) {
    if (on == migEnabled) {
      return; // asking for the current mode only cancels a pending change
    }
    if (!gis.isEmpty()) {
      throw new AssertionError("MIG mode change with GPU instances left");
    }
    migEnabled = on;
  }

  private void requireMig() {
    if (!migEnabled) {
      throw new AssertionError("create with MIG disabled");
    }
  }

  private Gi existing(int giId) {
    Gi gi = gis.get(giId);
    if (gi == null) {
      throw new AssertionError("no GPU instance " + giId);
    }
    return gi;
  }

  private void check(GiProfile profile, Placement placement) {
    if (!profile.placements().contains(placement)) {
      throw new AssertionError(profile.name() + " cannot sit at " + placement);
    }
    int same = 0;
    int optical = profile.opticalFlowAccelerators() > 0 ? 1 : 0;
    for (Gi other : gis.values()) {
      if (other.placement.overlaps(placement)) {
        throw new AssertionError(profile.name() + " at " + placement + " overlaps " + other.id);
      }
      if (other.profile.equals(profile)) {
        same++;
      }
      if (other.profile.opticalFlowAccelerators() > 0) {
        optical++;
      }
    }
    if (same >= profile.instances()) {
      throw new AssertionError("more than " + profile.instances() + " × " + profile.name());
    }
    if (optical > 1) {
      throw new AssertionError("a second instance with the optical flow accelerator");
    }
  }

  private void checkCi(Gi gi, Placement at, int profileId, ProfileName name) {
    int c = at.size();
    CiProfile ci =
        gi.profile
            .ciProfileBySlices(c)
            .orElseThrow(() -> new AssertionError(gi.profile.name() + " has no " + c + "c"));
    ProfileName expected = gi.profile.name().computeInstance(c);
    if (ci.id() != profileId || !expected.equals(name)) {
      throw new AssertionError("compute instance " + name + " id " + profileId + " is not " + ci);
    }
    if (!ci.placements().contains(at)) {
      throw new AssertionError(c + "c cannot sit at " + at + " in " + gi.profile.name());
    }
    long same = gi.cis.values().stream().filter(x -> x.placement().size() == c).count();
    if (same >= ci.instances()) {
      throw new AssertionError("more than " + ci.instances() + " × " + name);
    }
    for (LiveComputeInstance other : gi.cis.values()) {
      if (other.placement().overlaps(at)) {
        throw new AssertionError(name + " at " + at + " overlaps compute instance " + other.id());
      }
    }
  }

  /** What the GPU holds, as sorted spec strings (profile and compute-instance sizes). */
  List<String> layout() {
    var result = new ArrayList<String>();
    for (Gi gi : gis.values()) {
      var sizes = gi.cis.values().stream().map(ci -> ci.placement().size()).sorted().toList();
      result.add(gi.profile.name() + sizes.toString());
    }
    result.sort(Comparator.naturalOrder());
    return result;
  }

  /** Where the GPU instances sit, as {@code 1g.5gb@0:1} strings in placement order. */
  List<String> placed() {
    return gis.values().stream()
        .sorted(Comparator.comparingInt((Gi gi) -> gi.placement.start()))
        .map(gi -> gi.profile.name() + "@" + gi.placement)
        .toList();
  }

  /** The same strings for a target. */
  static List<String> layoutOf(List<GpuInstanceSpec> specs) {
    return specs.stream()
        .map(s -> s.profile() + s.computeInstanceSlices().toString())
        .sorted()
        .toList();
  }

  /** The GPU instance with this id, if it still exists: its profile and placement. */
  String describe(int giId) {
    Gi gi = gis.get(giId);
    return gi == null ? "gone" : gi.profile.name() + "@" + gi.placement;
  }

  /** The GPU as the observer would report it. */
  ObservedGpu observed() {
    var live = new ArrayList<LiveGpuInstance>();
    for (Gi gi : gis.values()) {
      live.add(
          new LiveGpuInstance(
              gi.id,
              gi.profile.id(),
              gi.profile.name(),
              gi.placement,
              List.copyOf(gi.cis.values())));
    }
    live.sort(Comparator.comparingInt(g -> g.placement().start()));
    return Gpus.observed(model, gpu, migEnabled, migEnabled, live);
  }
}
