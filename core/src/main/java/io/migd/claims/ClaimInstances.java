package io.migd.claims;

import io.migd.claims.CheckpointClaim.Device;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.MigModeChange;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MigMode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ProcessInfo;
import io.migd.pool.DeviceOrigin.DynamicPlacement;
import io.migd.pool.DeviceOrigin.StaticSlice;
import io.migd.profiles.GpuModelCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The NVML sequences of claims on one GPU: a dynamic placement created (or an idle instance
 * reused), a claim's instance destroyed, MIG mode following the claims on Hopper and later, and the
 * unowned instances of a dynamic GPU swept after a restart. Each method is one NVML sequence; the
 * caller runs it on the GPU's lane, so one GPU sees one sequence at a time. A sentence the kubelet
 * should show is thrown as {@link ClaimFailure}; an instance a process uses is never destroyed.
 */
final class ClaimInstances {
  private final Nvml nvml;
  private final NodeObserver observer;

  ClaimInstances(Nvml nvml, GpuModelCatalog catalog) {
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, catalog);
  }

  /** A MIG device that exists: its GPU instance, compute instance and UUID. */
  record Made(int gpuInstanceId, int computeInstanceId, String migUuid, boolean reused) {}

  /**
   * Makes the MIG device of {@code placement} for device {@code name}: enables MIG first on a
   * Hopper or later GPU, reuses an idle instance of the profile at the placement, destroys idle
   * instances that overlap it (and, when its profile needs the GPU's optical-flow engine, an idle
   * one holding it: NVML refuses a second), then creates the GPU instance and the compute instance
   * spanning it. {@code others} are what the other claims own on the GPU.
   */
  Made place(String name, DynamicPlacement placement, List<Owner> others) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = gpu(name, placement.gpu(), placement.gpuUuid());
          MigMode mode = nvml.migMode(device);
          if (!mode.current()) {
            enableMig(name, placement.gpu(), device, others);
          }
          Survey at = survey(name, device, placement, others);
          for (LiveGpuInstance gi : at.besides()) {
            destroy(name, device, gi);
          }
          LiveGpuInstance exact = at.exact().orElse(null);
          int slices = nvml.gpuInstanceProfileById(device, placement.giProfileId()).sliceCount();
          GpuInstanceHandle gi;
          int giId;
          if (exact != null) {
            giId = exact.id();
            gi = nvml.gpuInstanceById(device, giId);
            Optional<LiveComputeInstance> spanning = spanning(exact, slices);
            if (spanning.isPresent() && !spanning.get().uuid().isEmpty()) {
              var ci = spanning.get();
              return new Made(giId, ci.id(), ci.uuid(), true);
            }
            for (LiveComputeInstance ci : exact.computeInstances()) {
              nvml.destroyComputeInstance(nvml.computeInstanceById(gi, ci.id()));
            }
          } else {
            gi =
                create(
                    name,
                    () ->
                        nvml.createGpuInstance(
                            device,
                            placement.giProfileId(),
                            new InstancePlacement(placement.start(), placement.size())));
            giId = nvml.gpuInstanceInfo(gi).id();
          }
          ComputeInstanceProfile ciProfile =
              nvml.computeInstanceProfiles(gi).stream()
                  .filter(p -> p.sliceCount() == slices)
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new ClaimFailure(
                              "device "
                                  + name
                                  + ": GPU instance profile "
                                  + placement.giProfileId()
                                  + " offers no compute instance of "
                                  + slices
                                  + " slices"));
          GpuInstanceHandle made = gi;
          var ci =
              create(
                  name,
                  () ->
                      nvml.createComputeInstance(
                          made, ciProfile.id(), new InstancePlacement(0, slices)));
          int ciId = nvml.computeInstanceInfo(ci).id();
          return new Made(giId, ciId, migUuid(device, giId, ciId), exact != null);
        });
  }

  /**
   * The idle MIG device of exactly {@code placement} when a claim can take it as it is (MIG on, its
   * compute instance spanning it, nothing else overlapping the placement), so {@link #place} would
   * change nothing in NVML; empty otherwise. Refuses, as {@link #place} does, when another claim or
   * a process holds an instance overlapping the placement.
   */
  Optional<Made> reusable(String name, DynamicPlacement placement, List<Owner> others) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = gpu(name, placement.gpu(), placement.gpuUuid());
          if (!nvml.migMode(device).current()) {
            return Optional.empty();
          }
          Survey at = survey(name, device, placement, others);
          if (!at.besides().isEmpty()) {
            return Optional.empty();
          }
          int slices = nvml.gpuInstanceProfileById(device, placement.giProfileId()).sliceCount();
          return at.exact()
              .flatMap(
                  gi ->
                      spanning(gi, slices)
                          .filter(ci -> !ci.uuid().isEmpty())
                          .map(ci -> new Made(gi.id(), ci.id(), ci.uuid(), true)));
        });
  }

  /**
   * The GPU instances overlapping a placement, each checked to be neither another claim's nor in
   * use by a process.
   */
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
      String name, DeviceHandle device, DynamicPlacement placement, List<Owner> others) {
    ObservedGpu seen = observer.observe(placement.gpu());
    boolean needsOfa = usesOfa(device, placement.giProfileId());
    var overlapping = new ArrayList<LiveGpuInstance>();
    for (LiveGpuInstance gi : seen.gpuInstances()) {
      int start = gi.placement().start();
      int size = gi.placement().size();
      boolean disjoint =
          start >= placement.start() + placement.size() || placement.start() >= start + size;
      // the GPU's one optical-flow engine: another instance holding it is in the way too
      if (disjoint && !(needsOfa && usesOfa(device, gi.profileId()))) {
        continue;
      }
      refuseOwnedOrBusy(name, seen, gi, others);
      overlapping.add(gi);
    }
    return new Survey(placement, overlapping);
  }

  /**
   * The MIG device at {@code placement} if it exists (an {@code adminAccess} result answers it and
   * creates nothing).
   */
  Optional<Made> existing(String name, DynamicPlacement placement) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = gpu(name, placement.gpu(), placement.gpuUuid());
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
                          .map(ci -> new Made(gi.id(), ci.id(), ci.uuid(), true)))
              .findFirst();
        });
  }

  /**
   * Hands out a dynamic GPU whole: on Hopper and later destroys its idle instances and disables
   * MIG; an Ampere GPU keeps MIG (the reconcile loop enabled it) and offers no whole GPU.
   */
  void wholeGpu(String name, GpuIndex index, String gpuUuid, List<Owner> others) {
    nvml.inSequence(
        () -> {
          DeviceHandle device = gpu(name, index, gpuUuid);
          MigMode mode = nvml.migMode(device);
          if (!mode.current() && !mode.pending()) {
            return null;
          }
          if (!followsClaims(device)) {
            throw new ClaimFailure(
                "device "
                    + name
                    + ": GPU "
                    + index
                    + " keeps MIG mode enabled (before Hopper a change needs a GPU reset), so it"
                    + " cannot be handed out whole");
          }
          ObservedGpu seen = observer.observe(index);
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            refuseOwnedOrBusy(name, seen, gi, others);
          }
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            destroy(name, device, gi);
          }
          NvmlReturn status = nvml.setMigMode(device, false);
          if (status != NvmlReturn.SUCCESS) {
            throw new ClaimFailure(
                "device "
                    + name
                    + ": disabling MIG mode on GPU "
                    + index
                    + " is pending ("
                    + status
                    + ")"
                    + holders(seen));
          }
          return null;
        });
  }

  /** Whether GPU-instance profile {@code giProfileId} takes an optical-flow engine. */
  private boolean usesOfa(DeviceHandle device, int giProfileId) {
    return nvml.gpuInstanceProfileById(device, giProfileId).ofaCount() > 0;
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
          gpu(name, slice.gpu(), slice.gpuUuid());
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

  /** The GPU's minor number, checking it is still the GPU the pool named. */
  int minor(String name, GpuIndex index, String gpuUuid) {
    return nvml.inSequence(() -> nvml.minorNumber(gpu(name, index, gpuUuid)));
  }

  /**
   * Destroys the instance a claim's device was given (compute instances, then the GPU instance),
   * unless {@code destroy} is false (kept idle for reuse: only checked); nothing when it is gone or
   * another claim ({@code others}) owns it now. An instance a process uses fails naming the
   * process.
   */
  void release(Device owned, List<Owner> others, boolean destroy) {
    nvml.inSequence(
        () -> {
          DeviceHandle device = nvml.deviceByIndex(owned.gpu().value());
          if (!nvml.uuid(device).equals(owned.gpuUuid()) || !nvml.migMode(device).current()) {
            return null;
          }
          ObservedGpu seen = observer.observe(owned.gpu());
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            if (!isOf(owned, gi) || others.stream().anyMatch(o -> ownsInstance(o, gi))) {
              continue;
            }
            String busy = holders(seen, gi.id());
            if (!busy.isEmpty()) {
              throw new ClaimFailure(
                  "device " + owned.name() + ": " + describe(gi) + " is in use by" + busy);
            }
            if (destroy) {
              destroy(owned.name(), device, gi);
            }
          }
          return null;
        });
  }

  /** What NVML shows of a claim's device now: its instance's ids and UUID, if it still exists. */
  Optional<LiveGpuInstance> find(Device owned) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = nvml.deviceByIndex(owned.gpu().value());
          if (!nvml.uuid(device).equals(owned.gpuUuid()) || !nvml.migMode(device).current()) {
            return Optional.empty();
          }
          return observer.observe(owned.gpu()).gpuInstances().stream()
              .filter(gi -> isOf(owned, gi))
              .findFirst();
        });
  }

  /** What became of an instance no claim owns on a dynamic GPU, after a restart. */
  record Swept(LiveGpuInstance instance, String holders) {
    /** Whether it was kept: a process uses it. */
    boolean kept() {
      return !holders.isEmpty();
    }
  }

  /**
   * Destroys every idle instance of a dynamic GPU that no claim owns, and keeps (and answers) those
   * a process uses.
   */
  List<Swept> sweep(GpuIndex index, List<Owner> owners) {
    return sweep(index, owners, gi -> true);
  }

  /**
   * As {@link #sweep(GpuIndex, List)}, for the GPU instances {@code which} picks: a GPU instance
   * without a compute instance (half made: a plan or a prepare cut short) serves nobody as it is.
   */
  List<Swept> sweep(GpuIndex index, List<Owner> owners, Predicate<LiveGpuInstance> which) {
    return nvml.inSequence(
        () -> {
          DeviceHandle device = nvml.deviceByIndex(index.value());
          if (!nvml.migMode(device).current()) {
            return List.of();
          }
          ObservedGpu seen = observer.observe(index);
          var swept = new ArrayList<Swept>();
          for (LiveGpuInstance gi : seen.gpuInstances()) {
            if (!which.test(gi) || owners.stream().anyMatch(o -> ownsInstance(o, gi))) {
              continue;
            }
            String busy = holders(seen, gi.id());
            if (busy.isEmpty()) {
              destroy("(none)", device, gi);
            }
            swept.add(new Swept(gi, busy));
          }
          return List.copyOf(swept);
        });
  }

  private DeviceHandle gpu(String name, GpuIndex index, String gpuUuid) {
    DeviceHandle device = nvml.deviceByIndex(index.value());
    String uuid = nvml.uuid(device);
    if (!uuid.equals(gpuUuid)) {
      throw new ClaimFailure(
          "device " + name + ": GPU " + index + " is now " + uuid + ", not " + gpuUuid);
    }
    return device;
  }

  private void enableMig(String name, GpuIndex index, DeviceHandle device, List<Owner> others) {
    if (!followsClaims(device)) {
      throw new ClaimFailure(
          "device " + name + ": MIG mode of GPU " + index + " is not enabled yet");
    }
    others.stream()
        .filter(
            o -> o.device().wholeGpu() && o.device().kind() != CheckpointClaim.Kind.ADMIN_ACCESS)
        .findFirst()
        .ifPresent(
            o -> {
              throw new ClaimFailure(
                  "device "
                      + name
                      + ": GPU "
                      + index
                      + " is prepared whole for claim "
                      + o.claim().label());
            });
    NvmlReturn status = nvml.setMigMode(device, true);
    if (status != NvmlReturn.SUCCESS) {
      throw new ClaimFailure(
          "device "
              + name
              + ": enabling MIG mode on GPU "
              + index
              + " is pending ("
              + status
              + ")"
              + holders(observer.observe(index)));
    }
  }

  /**
   * Whether the GPU's MIG mode follows the claims: NVML's architecture says it changes without a
   * reset (Hopper and later; {@link MigModeChange}, the rule every path reads).
   */
  private boolean followsClaims(DeviceHandle device) {
    return MigModeChange.of(nvml.architecture(device)) == MigModeChange.AT_ONCE;
  }

  private void refuseOwnedOrBusy(
      String name, ObservedGpu seen, LiveGpuInstance gi, List<Owner> others) {
    for (Owner other : others) {
      if (ownsInstance(other, gi)) {
        throw new ClaimFailure(
            "device "
                + name
                + ": "
                + describe(gi)
                + " on GPU "
                + seen.index()
                + " is prepared for claim "
                + other.claim().label());
      }
    }
    String busy = holders(seen, gi.id());
    if (!busy.isEmpty()) {
      throw new ClaimFailure(
          "device "
              + name
              + ": "
              + describe(gi)
              + " on GPU "
              + seen.index()
              + " is in use by"
              + busy);
    }
  }

  private static boolean ownsInstance(Owner owner, LiveGpuInstance gi) {
    return owner.owns(gi.id(), gi.placement().start(), gi.placement().size());
  }

  private static boolean isOf(Device owned, LiveGpuInstance gi) {
    return owned.gpuInstanceId() >= 0
        ? gi.id() == owned.gpuInstanceId()
        : gi.placement().start() == owned.placementStart()
            && gi.placement().size() == owned.placementSize()
            && gi.profileId() == owned.giProfileId();
  }

  private void destroy(String name, DeviceHandle device, LiveGpuInstance gi) {
    try {
      GpuInstanceHandle handle = nvml.gpuInstanceById(device, gi.id());
      for (LiveComputeInstance ci : gi.computeInstances()) {
        nvml.destroyComputeInstance(nvml.computeInstanceById(handle, ci.id()));
      }
      nvml.destroyGpuInstance(handle);
    } catch (NvmlException e) {
      if (e.code() == NvmlReturn.IN_USE) {
        throw new ClaimFailure("device " + name + ": " + describe(gi) + " is in use", e);
      }
      throw e;
    }
  }

  private static <T> T create(String name, Supplier<T> call) {
    try {
      return call.get();
    } catch (NvmlException e) {
      if (e.code() == NvmlReturn.INSUFFICIENT_RESOURCES) {
        throw new ClaimFailure(
            "device " + name + ": " + e.function() + " answered " + e.code() + " (no room)", e);
      }
      throw e;
    }
  }

  private String migUuid(DeviceHandle device, int giId, int ciId) {
    int max = nvml.maxMigDeviceCount(device);
    for (int i = 0; i < max; i++) {
      var mig = nvml.migDeviceByIndex(device, i);
      if (mig.isPresent()
          && nvml.gpuInstanceId(mig.get()) == giId
          && nvml.computeInstanceId(mig.get()) == ciId) {
        return nvml.uuid(mig.get());
      }
    }
    return "";
  }

  private static Optional<LiveComputeInstance> spanning(LiveGpuInstance gi, int slices) {
    return gi.computeInstances().size() == 1
            && gi.computeInstances().getFirst().placement().start() == 0
            && gi.computeInstances().getFirst().placement().size() == slices
        ? Optional.of(gi.computeInstances().getFirst())
        : Optional.empty();
  }

  private static String describe(LiveGpuInstance gi) {
    return "GPU instance "
        + gi.id()
        + " ("
        + gi.profile()
        + " at "
        + gi.placement().start()
        + ":"
        + gi.placement().size()
        + ")";
  }

  /** {@code ": in use by process ..."} for every process on the GPU; empty when none. */
  private String holders(ObservedGpu seen) {
    String all = processes(seen, p -> true);
    return all.isEmpty() ? "" : ": in use by" + all;
  }

  /** {@code " process 1 (name), ..."} for the processes in one GPU instance; empty when none. */
  private String holders(ObservedGpu seen, int giId) {
    return processes(seen, p -> p.gpuInstanceId() == giId);
  }

  private String processes(ObservedGpu seen, Predicate<ProcessInfo> which) {
    return seen.processes().stream()
        .filter(which)
        .map(p -> " process " + p.pid() + " (" + nameOf(p.pid()) + ")")
        .collect(Collectors.joining(","));
  }

  private String nameOf(int pid) {
    try {
      return nvml.processName(pid);
    } catch (NvmlException e) {
      return "pid " + pid;
    }
  }
}
