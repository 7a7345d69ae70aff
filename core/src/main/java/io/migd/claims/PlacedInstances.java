package io.migd.claims;

import io.migd.execute.Execution;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.Nvml;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimDevice.MigInstance;
import io.migd.ownership.ClaimedDevice;
import io.migd.plan.Step;
import io.migd.pool.DeviceOrigin.DynamicPlacement;
import io.migd.profiles.GiProfile;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MIG device of a dynamic placement, made for a claim: MIG enabled first on Hopper and later,
 * an idle instance of the profile at the placement reused, idle instances in its way destroyed,
 * then the GPU instance and the compute instance spanning it created, all as one plan. Each method
 * is one NVML sequence, run on the GPU's lane.
 */
final class PlacedInstances {
  private final Nvml nvml;
  private final NodeObserver observer;
  private final ModelSource models;
  private final ClaimPlans plans;
  private final InstanceHolders holders;

  PlacedInstances(
      Nvml nvml,
      NodeObserver observer,
      ModelSource models,
      ClaimPlans plans,
      InstanceHolders holders) {
    this.nvml = nvml;
    this.observer = observer;
    this.models = models;
    this.plans = plans;
    this.holders = holders;
  }

  /** A MIG device that exists, and whether an idle one was taken as it was. */
  record Made(MigInstance instance, boolean reused) {}

  /**
   * Makes the MIG device of {@code placement} for device {@code name}: enables MIG first on a
   * Hopper or later GPU, reuses an idle instance of the profile at the placement, destroys idle
   * instances that overlap it (and, when its profile needs the GPU's optical-flow engine, an idle
   * one holding it: NVML refuses a second), then creates the GPU instance and the compute instance
   * spanning it. {@code others} are what the other claims own on the GPU.
   */
  Made place(String name, DynamicPlacement placement, List<ClaimedDevice> others) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = plans.gpu(name, placement.gpu(), placement.gpuUuid());
          if (!nvml.migMode(device).current()) {
            enableMig(name, placement.gpu(), device, others);
          }
          ObservedGpu seen = observer.observe(placement.gpu());
          GiProfile profile = profileOf(name, seen, placement.giProfileId());
          Survey at = survey(name, seen, placement, profile, others);
          var steps = new ArrayList<Step>();
          at.besides().forEach(gi -> ClaimPlans.destroySteps(placement.gpu(), gi, steps));
          Optional<LiveGpuInstance> exact = at.exact();
          Optional<MigInstance> ready = exact.flatMap(gi -> spanning(gi, profile.slices()));
          if (ready.isPresent()) {
            plans.run(name, placement.gpu(), steps);
            return new Made(ready.get(), true);
          }
          Placement where = new Placement(placement.start(), placement.size());
          if (exact.isPresent()) {
            exact.get().computeInstances().stream()
                .map(ci -> new Step.DestroyComputeInstance(seen.index(), exact.get().id(), ci.id()))
                .forEach(steps::add);
          } else {
            steps.add(
                new Step.CreateGpuInstance(seen.index(), profile.name(), profile.id(), where));
          }
          var ciProfile =
              profile
                  .ciProfileBySlices(profile.slices())
                  .orElseThrow(
                      () ->
                          new ClaimFailure(
                              "device "
                                  + name
                                  + ": GPU instance profile "
                                  + profile.id()
                                  + " offers no compute instance of "
                                  + profile.slices()
                                  + " slices"));
          steps.add(
              new Step.CreateComputeInstance(
                  seen.index(),
                  where,
                  profile.name(),
                  ciProfile.id(),
                  new Placement(0, profile.slices())));
          plans.run(name, placement.gpu(), steps);
          return observer.observe(placement.gpu()).gpuInstances().stream()
              .filter(gi -> gi.profileId() == profile.id() && gi.placement().equals(where))
              .flatMap(gi -> spanning(gi, profile.slices()).stream())
              .findFirst()
              .map(made -> new Made(made, exact.isPresent()))
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "device " + name + ": NVML does not show the instance just made"));
        });
  }

  /**
   * The idle MIG device of exactly {@code placement} when a claim can take it as it is (MIG on, its
   * compute instance spanning it, nothing else overlapping the placement), so {@link #place} would
   * change nothing in NVML; empty otherwise. Refuses, as {@link #place} does, when another claim or
   * a process holds an instance overlapping the placement.
   */
  Optional<Made> reusable(String name, DynamicPlacement placement, List<ClaimedDevice> others) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = plans.gpu(name, placement.gpu(), placement.gpuUuid());
          if (!nvml.migMode(device).current()) {
            return Optional.empty();
          }
          ObservedGpu seen = observer.observe(placement.gpu());
          GiProfile profile = profileOf(name, seen, placement.giProfileId());
          Survey at = survey(name, seen, placement, profile, others);
          if (!at.besides().isEmpty()) {
            return Optional.empty();
          }
          return at.exact()
              .flatMap(gi -> spanning(gi, profile.slices()))
              .map(made -> new Made(made, true));
        });
  }

  /** The GPU instances overlapping a placement, each checked to be held by nobody. */
  private record Survey(DynamicPlacement placement, List<LiveGpuInstance> overlapping) {
    Survey {
      overlapping = List.copyOf(overlapping);
    }

    /** The instance of exactly the placement's profile, start and size. */
    Optional<LiveGpuInstance> exact() {
      return overlapping.stream().filter(this::isExact).findFirst();
    }

    /** The overlapping instances other than the exact one. */
    List<LiveGpuInstance> besides() {
      return overlapping.stream().filter(gi -> !isExact(gi)).toList();
    }

    private boolean isExact(LiveGpuInstance gi) {
      return gi.profileId() == placement.giProfileId()
          && gi.placement().start() == placement.start()
          && gi.placement().size() == placement.size();
    }
  }

  /**
   * The instances in the placement's way: those overlapping it, and one holding the GPU's
   * optical-flow engine when the placement's profile needs it (a {@code +me} profile).
   */
  private Survey survey(
      String name,
      ObservedGpu seen,
      DynamicPlacement placement,
      GiProfile profile,
      List<ClaimedDevice> others) {
    var where = new Placement(placement.start(), placement.size());
    boolean needsOfa = profile.opticalFlowAccelerators() > 0;
    var overlapping = new ArrayList<LiveGpuInstance>();
    for (LiveGpuInstance gi : seen.gpuInstances()) {
      boolean disjoint = !gi.placement().overlaps(where);
      // the GPU's one optical-flow engine: another instance holding it is in the way too
      if (disjoint
          && !(needsOfa && profileOf(name, seen, gi.profileId()).opticalFlowAccelerators() > 0)) {
        continue;
      }
      holders.refuseOwnedOrBusy(name, seen, gi, others);
      overlapping.add(gi);
    }
    return new Survey(placement, overlapping);
  }

  /**
   * The MIG device at {@code placement} if it exists (an {@code adminAccess} result answers it and
   * creates nothing).
   */
  Optional<MigInstance> existing(String name, DynamicPlacement placement) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = plans.gpu(name, placement.gpu(), placement.gpuUuid());
          if (!nvml.migMode(device).current()) {
            return Optional.empty();
          }
          return observer.observe(placement.gpu()).gpuInstances().stream()
              .filter(
                  gi ->
                      gi.placement().start() == placement.start()
                          && gi.placement().size() == placement.size())
              .flatMap(
                  gi ->
                      gi.computeInstances().stream()
                          .filter(ci -> !ci.uuid().isEmpty())
                          .map(ci -> new MigInstance(gi.id(), ci.id(), ci.uuid())))
              .findFirst();
        });
  }

  private void enableMig(
      String name, GpuIndex index, DeviceHandle device, List<ClaimedDevice> others) {
    if (!plans.followsClaims(device)) {
      throw new ClaimFailure(
          "device " + name + ": MIG mode of GPU " + index + " is not enabled yet");
    }
    others.stream()
        .filter(o -> o.device() instanceof ClaimDevice.Whole)
        .findFirst()
        .ifPresent(
            o -> {
              throw new ClaimFailure(
                  "device "
                      + name
                      + ": GPU "
                      + index
                      + " is prepared whole for claim "
                      + o.key().label());
            });
    if (plans.run(name, index, List.of(new Step.EnableMig(index)))
        instanceof Execution.ModeChangePending(var step, var status)) {
      throw new ClaimFailure(
          "device "
              + name
              + ": enabling MIG mode on GPU "
              + index
              + " is pending ("
              + status
              + ")"
              + holders.onGpu(observer.observe(index)));
    }
  }

  /**
   * The GPU-instance profile {@code giProfileId} of the GPU, NVML's first, the catalogue's else.
   */
  private GiProfile profileOf(String name, ObservedGpu seen, int giProfileId) {
    return models
        .modelOf(seen)
        .flatMap(m -> m.giProfiles().stream().filter(p -> p.id() == giProfileId).findFirst())
        .orElseThrow(
            () ->
                new ClaimFailure(
                    "device "
                        + name
                        + ": GPU "
                        + seen.index()
                        + " has no GPU instance profile "
                        + giProfileId));
  }

  private static Optional<MigInstance> spanning(LiveGpuInstance gi, int slices) {
    if (gi.computeInstances().size() != 1) {
      return Optional.empty();
    }
    LiveComputeInstance ci = gi.computeInstances().getFirst();
    return ci.placement().start() == 0 && ci.placement().size() == slices && !ci.uuid().isEmpty()
        ? Optional.of(new MigInstance(gi.id(), ci.id(), ci.uuid()))
        : Optional.empty();
  }
}
