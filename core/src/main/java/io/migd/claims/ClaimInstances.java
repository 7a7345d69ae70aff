package io.migd.claims;

import io.migd.execute.Execution;
import io.migd.execute.Executor;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.MigMode;
import io.migd.nvml.Nvml;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimDevice.MigInstance;
import io.migd.ownership.ClaimedDevice;
import io.migd.plan.Step;
import io.migd.pool.DeviceOrigin.DynamicPlacement;
import io.migd.pool.DeviceOrigin.StaticSlice;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.UsageSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The NVML sequences of claims on one GPU: a dynamic placement created (or an idle instance
 * reused), a claim's instance destroyed, MIG mode following the claims on Hopper and later, and the
 * unowned instances of a dynamic GPU swept. It decides here (what is in the way, what may be
 * destroyed) and changes NVML only through plans run by the {@link Executor}, the one writer of MIG
 * state, so a claim's changes are retried, undone when half made, and told to the progress
 * listeners as the reconcile's are. Each method is one NVML sequence; the caller runs it on the
 * GPU's lane, so one GPU sees one sequence at a time. A sentence the kubelet should show is thrown
 * as {@link ClaimFailure}; an instance in use ({@link InstanceHolders}) is never destroyed.
 */
final class ClaimInstances {
  private final Nvml nvml;
  private final NodeObserver observer;
  private final ClaimPlans plans;
  private final InstanceHolders holders;
  private final PlacedInstances placed;

  /**
   * The claims' sequences over an NVML session, changing NVML through {@code executor}, and
   * counting the instances PodResources lists under a device-plugin resource ({@code pods}) as in
   * use.
   */
  ClaimInstances(Nvml nvml, GpuModelCatalog catalog, Executor executor, UsageSource pods) {
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, catalog);
    this.plans = new ClaimPlans(nvml, catalog, executor);
    this.holders = new InstanceHolders(nvml, pods);
    this.placed =
        new PlacedInstances(nvml, observer, new ModelSource(nvml, catalog), plans, holders);
  }

  /** See {@link PlacedInstances#place}. */
  PlacedInstances.Made place(String name, DynamicPlacement placement, List<ClaimedDevice> others) {
    return placed.place(name, placement, others);
  }

  /** See {@link PlacedInstances#reusable}. */
  Optional<PlacedInstances.Made> reusable(
      String name, DynamicPlacement placement, List<ClaimedDevice> others) {
    return placed.reusable(name, placement, others);
  }

  /** See {@link PlacedInstances#existing}. */
  Optional<MigInstance> existing(String name, DynamicPlacement placement) {
    return placed.existing(name, placement);
  }

  /**
   * Hands out a dynamic GPU whole: on Hopper and later destroys its idle instances and disables
   * MIG; an Ampere GPU keeps MIG (the reconcile loop enabled it) and offers no whole GPU.
   */
  void wholeGpu(String name, GpuIndex index, String gpuUuid, List<ClaimedDevice> others) {
    nvml.inSequence(
        () -> {
          DeviceHandle device = plans.gpu(name, index, gpuUuid);
          MigMode mode = nvml.migMode(device);
          if (!mode.current() && !mode.pending()) {
            return null;
          }
          if (!plans.followsClaims(device)) {
            throw new ClaimFailure(
                "device "
                    + name
                    + ": GPU "
                    + index
                    + " keeps MIG mode enabled (before Hopper a change needs a GPU reset), so it"
                    + " cannot be handed out whole");
          }
          ObservedGpu seen = observer.observe(index);
          var steps = new ArrayList<Step>();
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            holders.refuseOwnedOrBusy(name, seen, gi, others);
            ClaimPlans.destroySteps(index, gi, steps);
          }
          steps.add(new Step.DisableMig(index));
          if (plans.run(name, index, steps)
              instanceof Execution.ModeChangePending(var step, var status)) {
            throw new ClaimFailure(
                "device "
                    + name
                    + ": disabling MIG mode on GPU "
                    + index
                    + " is pending ("
                    + status
                    + ")"
                    + holders.onGpu(seen));
          }
          return null;
        });
  }

  /**
   * Checks that a static slice is still there as the pool published it: its GPU instance and
   * compute instance, with the MIG device's UUID. A pool is published from an observation, and a
   * plan or a claim's unprepare can destroy the instance before a claim the scheduler allocated
   * from that pool is prepared; answering it would hand out a MIG device that no longer exists.
   */
  void requireStatic(String name, StaticSlice slice) {
    nvml.inSequence(
        () -> {
          plans.gpu(name, slice.gpu(), slice.gpuUuid());
          boolean there =
              observer.observe(slice.gpu()).gpuInstances().stream()
                  .filter(gi -> gi.id() == slice.gpuInstanceId())
                  .flatMap(gi -> gi.computeInstances().stream())
                  .anyMatch(
                      ci ->
                          ci.id() == slice.computeInstanceId()
                              && ci.uuid().equals(slice.migUuid()));
          if (!there) {
            throw new ClaimFailure(
                "device "
                    + name
                    + ": its MIG device "
                    + slice.migUuid()
                    + " is gone from GPU "
                    + slice.gpu()
                    + " (destroyed after the pool it was allocated from was published)");
          }
          return null;
        });
  }

  /** The GPU instances NVML shows on the GPU now (none with MIG off), checking it is the GPU. */
  List<LiveGpuInstance> gpuInstances(String name, GpuIndex index, String gpuUuid) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = plans.gpu(name, index, gpuUuid);
          return nvml.migMode(device).current()
              ? observer.observe(index).gpuInstances()
              : List.<LiveGpuInstance>of();
        });
  }

  /** The GPU's minor number, checking it is still the GPU the pool named. */
  int minor(String name, GpuIndex index, String gpuUuid) {
    return nvml.inSequence(() -> nvml.minorNumber(plans.gpu(name, index, gpuUuid)));
  }

  /**
   * Destroys the instance a claim's device was given (compute instances, then the GPU instance),
   * unless {@code destroy} is false (kept idle for reuse: only checked); nothing when it is gone or
   * another claim ({@code others}) owns it now. An instance in use fails naming its holders.
   */
  void release(ClaimDevice owned, List<ClaimedDevice> others, boolean destroy) {
    nvml.inSequence(
        () -> {
          Optional<ObservedGpu> seen = sameGpu(owned);
          if (seen.isEmpty()) {
            return null;
          }
          var steps = new ArrayList<Step>();
          for (LiveGpuInstance gi : seen.get().gpuInstances()) {
            if (!owned.owns(gi) || others.stream().anyMatch(o -> o.device().owns(gi))) {
              continue;
            }
            String busy = holders.of(seen.get(), gi.id());
            if (!busy.isEmpty()) {
              throw new ClaimFailure(
                  "device "
                      + owned.name()
                      + ": "
                      + InstanceHolders.describe(gi)
                      + " is in use by"
                      + busy);
            }
            ClaimPlans.destroySteps(owned.gpu(), gi, steps);
          }
          if (destroy) {
            plans.run(owned.name(), owned.gpu(), steps);
          }
          return null;
        });
  }

  /** What NVML shows of a claim's device now: its GPU instance, if it still exists. */
  Optional<LiveGpuInstance> find(ClaimDevice owned) {
    return nvml.inSequence(
        () ->
            sameGpu(owned)
                .flatMap(seen -> seen.gpuInstances().stream().filter(owned::owns).findFirst()));
  }

  /** What became of an instance no claim owns on a dynamic GPU. */
  record Swept(LiveGpuInstance instance, String holders) {
    /** Whether it was kept: a process or a pod uses it. */
    boolean kept() {
      return !holders.isEmpty();
    }
  }

  /**
   * Destroys every GPU instance {@code which} picks that no claim ({@code owners}) owns and nothing
   * holds, and answers those kept because something holds them.
   */
  List<Swept> sweep(GpuIndex index, List<ClaimedDevice> owners, Predicate<LiveGpuInstance> which) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = nvml.deviceByIndex(index.value());
          if (!nvml.migMode(device).current()) {
            return List.of();
          }
          ObservedGpu seen = observer.observe(index);
          var swept = new ArrayList<Swept>();
          var steps = new ArrayList<Step>();
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            if (!which.test(gi) || owners.stream().anyMatch(o -> o.device().owns(gi))) {
              continue;
            }
            String busy = holders.of(seen, gi.id());
            if (busy.isEmpty()) {
              ClaimPlans.destroySteps(index, gi, steps);
            }
            swept.add(new Swept(gi, busy));
          }
          plans.run("(none)", index, steps);
          return List.copyOf(swept);
        });
  }

  /** The GPU as NVML shows it, when it is still the device's GPU and in MIG mode. */
  private Optional<ObservedGpu> sameGpu(ClaimDevice owned) {
    DeviceHandle device = nvml.deviceByIndex(owned.gpu().value());
    if (!nvml.uuid(device).equals(owned.gpuUuid()) || !nvml.migMode(device).current()) {
      return Optional.empty();
    }
    return Optional.of(observer.observe(owned.gpu()));
  }
}
