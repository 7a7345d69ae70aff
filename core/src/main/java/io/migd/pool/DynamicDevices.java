package io.migd.pool;

import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.ProcessInfo;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimedDevice;
import io.migd.pool.PlacementOrder.Spot;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The devices of a dynamic GPU: every GPU-instance profile at every placement NVML lists, each
 * consuming the GPU's counter set, a prepared one with its UUID, then the whole GPU (Hopper and
 * later). A placement that overlaps an instance no claim owns is withheld while the instance
 * exists, except the instance's own placement when it is idle (a prepare reuses it). On Ampere the
 * reconcile loop enables MIG first: until it is on, the GPU publishes no device.
 */
final class DynamicDevices {
  /** An instance NVML shows on the GPU, with its claim (if any) and the processes in it. */
  private record Instance(LiveGpuInstance gi, Optional<ClaimedDevice> owner, List<Integer> pids) {
    boolean unowned() {
      return owner.isEmpty();
    }

    boolean idle() {
      return pids.isEmpty();
    }

    boolean at(Spot spot) {
      return spot.profile().giProfileId() == gi.profileId()
          && spot.at().start() == gi.placement().start();
    }

    boolean overlaps(Spot spot) {
      return spot.overlaps(gi.placement().start(), gi.placement().size());
    }

    String describe() {
      return "GPU instance " + gi.id() + " (" + gi.profile() + " at " + gi.placement() + ")";
    }
  }

  private final PoolGpu gpu;
  private final GpuFacts facts;
  private final List<ClaimedDevice> claimed;
  private final DeviceTaints health;
  private final List<String> reasons = new ArrayList<>();

  private DynamicDevices(PoolGpu gpu, List<ClaimedDevice> claimed, DeviceTaints health) {
    this.gpu = gpu;
    this.facts = gpu.facts();
    this.claimed = List.copyOf(claimed);
    this.health = health;
  }

  /** The devices of {@code gpu}, whose facts list at least one profile. */
  static GpuDevices of(PoolGpu gpu, List<ClaimedDevice> claimed, DeviceTaints health) {
    return new DynamicDevices(gpu, claimed, health).build();
  }

  private GpuDevices build() {
    var attributes = new DeviceAttributes(facts, reasons);
    var counters = new GpuCounters(facts);
    ObservedGpu observed = gpu.observed();
    // NVML's architecture as the observation carries it (MigModeChange), as the loop and prepare
    boolean followsClaims = observed.migModeChangesAtOnce();
    boolean migReady = observed.migMode().current() && !observed.migMode().changePending();
    if (!followsClaims && !migReady) {
      reasons.add(
          "MIG mode is not on yet ("
              + facts.architecture()
              + " enables it before any MIG device is published, and a GPU reset makes it take"
              + " effect): no device is published until it is");
      return new GpuDevices(List.of(), List.of(counters.set()), reasons, freeCounts(List.of()));
    }

    List<Instance> instances = instances(observed);
    boolean wholeClaimed = claimed.stream().anyMatch(c -> c.device() instanceof ClaimDevice.Whole);
    var spots = new ArrayList<Spot>();
    facts.profiles().forEach(p -> p.placements().forEach(at -> spots.add(new Spot(p, at))));

    List<Spot> published = published(spots, instances, observed, wholeClaimed);
    List<Spot> free =
        wholeClaimed ? List.of() : published.stream().filter(s -> !occupied(s, instances)).toList();

    var devices = new ArrayList<PoolDevice>();
    for (Spot spot : PlacementOrder.order(published, free)) {
      Optional<Instance> there = instances.stream().filter(i -> i.at(spot)).findFirst();
      String name =
          DeviceNames.mig(
              facts.minor(),
              spot.profile().name(),
              spot.profile().giProfileId(),
              spot.at().start());
      devices.add(
          new PoolDevice(
              name,
              attributes.mig(
                  spot.profile().name(), spot.at().start(), spot.at().size(), uuid(name, there)),
              DeviceAttributes.migCapacity(spot.profile(), true),
              List.of(counters.of(spot.profile(), spot.at())),
              health.of(facts.gpu(), there.map(i -> i.gi().id()).orElse(Usage.WHOLE_GPU)),
              new DeviceOrigin.DynamicPlacement(
                  facts.gpu(),
                  facts.uuid(),
                  spot.profile().name(),
                  spot.profile().giProfileId(),
                  spot.at().start(),
                  spot.at().size())));
    }
    devices.addAll(preparedComputeInstances(instances, attributes, counters));
    if (followsClaims) {
      // A prepared whole GPU stays published whatever NVML shows: its claim owns it.
      if (!wholeClaimed && instances.stream().anyMatch(Instance::unowned)) {
        reasons.add("the whole GPU is not published: it overlaps an instance no claim owns");
      } else {
        devices.add(
            new PoolDevice(
                DeviceNames.wholeGpu(facts.minor()),
                attributes.wholeGpu(),
                attributes.wholeGpuCapacity(),
                List.of(counters.wholeGpu()),
                health.of(facts.gpu(), Usage.WHOLE_GPU),
                new DeviceOrigin.WholeGpu(facts.gpu(), facts.uuid(), true)));
      }
    }
    return new GpuDevices(devices, List.of(counters.set()), reasons, freeCounts(free));
  }

  /**
   * Compute instances that do not span their GPU instance and that a claim prepared while the GPU
   * was static: they stay published as long as the claim holds them, so the scheduler keeps
   * counting what they consume (the GPU instance's profile and memory slices).
   */
  private List<PoolDevice> preparedComputeInstances(
      List<Instance> instances, DeviceAttributes attributes, GpuCounters counters) {
    var devices = new ArrayList<PoolDevice>();
    for (Instance i : instances) {
      Optional<GpuFacts.MigProfile> profile =
          facts.profiles().stream().filter(p -> p.giProfileId() == i.gi().profileId()).findFirst();
      for (LiveComputeInstance ci : i.gi().computeInstances()) {
        boolean claimedHere =
            claimed.stream()
                .anyMatch(
                    c ->
                        c.device() instanceof ClaimDevice.Made(var _, var _, var _, var mig)
                            && mig.gpuInstanceId() == i.gi().id()
                            && mig.computeInstanceId() == ci.id());
        if (claimedHere && ci.profile().hasComputeInstancePart()) {
          var at = new InstancePlacement(i.gi().placement().start(), i.gi().placement().size());
          devices.add(
              StaticDevices.device(
                  facts,
                  attributes,
                  health,
                  i.gi(),
                  ci,
                  profile,
                  profile.map(p -> List.of(counters.of(p, at))).orElse(List.of())));
        }
      }
    }
    return devices;
  }

  private List<Instance> instances(ObservedGpu observed) {
    var instances = new ArrayList<Instance>();
    for (LiveGpuInstance gi : observed.gpuInstances()) {
      Optional<ClaimedDevice> owner = claimed.stream().filter(c -> c.device().owns(gi)).findFirst();
      List<Integer> pids =
          observed.processes().stream()
              .filter(p -> p.gpuInstanceId() == gi.id())
              .map(ProcessInfo::pid)
              .toList();
      instances.add(new Instance(gi, owner, pids));
    }
    return instances;
  }

  /** The spots not withheld, saying once per instance or process why others are. */
  private List<Spot> published(
      List<Spot> spots, List<Instance> instances, ObservedGpu observed, boolean wholeClaimed) {
    if (!observed.migMode().current() && !observed.processes().isEmpty() && !wholeClaimed) {
      reasons.add(
          "process "
              + pids(observed.processes().stream().map(ProcessInfo::pid).toList())
              + " uses the GPU with MIG off and no claim owns it: no MIG device is published"
              + " while it runs");
      return List.of();
    }
    for (Instance i : instances) {
      if (i.unowned()) {
        reasons.add(
            i.describe()
                + " belongs to no claim"
                + (i.idle() ? "" : " and process " + pids(i.pids()) + " uses it")
                + ": the placements overlapping it are not published while it exists"
                + (i.idle() ? " (its own stays published, for reuse)" : ""));
      }
    }
    return spots.stream()
        .filter(
            s ->
                instances.stream()
                    .noneMatch(i -> i.unowned() && i.overlaps(s) && !(i.idle() && i.at(s))))
        .toList();
  }

  /** Whether a claim or a busy instance holds memory slices the spot needs. */
  private boolean occupied(Spot spot, List<Instance> instances) {
    var at = new Placement(spot.at().start(), spot.at().size());
    var observed = instances.stream().map(Instance::gi).toList();
    if (claimed.stream().anyMatch(c -> c.device().overlaps(at, observed))) {
      return true;
    }
    return instances.stream().anyMatch(i -> (!i.unowned() || !i.idle()) && i.overlaps(spot));
  }

  /** The MIG UUID of the device named so: its claim's, else its instance's when it exists. */
  private String uuid(String name, Optional<Instance> there) {
    return claimed.stream()
        .filter(c -> c.deviceName().equals(name) && c.device() instanceof ClaimDevice.Made)
        .map(c -> c.device().deviceUuid())
        .findFirst()
        .or(
            () ->
                there.flatMap(
                    i ->
                        i.gi().computeInstances().stream()
                            .filter(ci -> !ci.profile().hasComputeInstancePart())
                            .map(LiveComputeInstance::uuid)
                            .findFirst()))
        .orElse("");
  }

  private List<FreePlacements> freeCounts(List<Spot> free) {
    GpuIndex index = facts.gpu();
    return facts.profiles().stream()
        .sorted(
            Comparator.comparingLong(GpuFacts.MigProfile::memoryMiB)
                .thenComparingInt(GpuFacts.MigProfile::giProfileId))
        .map(
            p ->
                new FreePlacements(
                    index,
                    p.name(),
                    (int) free.stream().filter(s -> s.profile().equals(p)).count()))
        .toList();
  }

  private static String pids(List<Integer> pids) {
    return String.join(", ", pids.stream().map(String::valueOf).toList());
  }
}
