package io.migd.claims;

import io.migd.claims.ClaimReading.Wanted;
import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.CheckpointClaim.Share;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ReservedPod;
import io.migd.pool.DeviceOrigin.DynamicPlacement;
import io.migd.pool.DeviceOrigin.StaticSlice;
import io.migd.pool.DeviceOrigin.WholeGpu;
import io.migd.profiles.Placement;
import io.migd.sharing.DeviceSharing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepare of one claim (DESIGN.md section 12, "Prepare"): its devices recorded {@code
 * prepareStarted} (in memory at once, on the disk before NVML changes anything), each made or
 * checked on its GPU's lane, its sharing applied, the CDI spec written, then the claim recorded
 * {@code prepareCompleted}. Every record written after NVML changed is told to the {@link
 * ClaimRecords}, so the pool is rebuilt from it.
 */
final class ClaimPreparing {
  private static final Logger log = LoggerFactory.getLogger(ClaimPreparing.class);

  private final ClaimReading reading;
  private final ClaimInstances instances;
  private final ClaimCdi cdi;
  private final ClaimRecords records;
  private final GpuLanes lanes;
  private final ClaimConsumers consumers;
  private final PreparedSharing sharing;
  private final String pool;
  private final boolean oneNamespace;

  ClaimPreparing(
      ClaimReading reading,
      ClaimInstances instances,
      ClaimCdi cdi,
      ClaimRecords records,
      GpuLanes lanes,
      ClaimConsumers consumers,
      PreparedSharing sharing,
      String pool,
      boolean oneNamespace) {
    this.reading = reading;
    this.instances = instances;
    this.cdi = cdi;
    this.records = records;
    this.lanes = lanes;
    this.consumers = consumers;
    this.sharing = sharing;
    this.pool = pool;
    this.oneNamespace = oneNamespace;
  }

  /** Prepares the claim, or answers it again when its prepare completed. */
  PrepareAnswer prepare(ClaimKey key) {
    var known = records.checkpoint().get(key.uid());
    if (known.isPresent() && known.get().completed()) {
      return new PrepareAnswer.Prepared(key, pool, known.get().devices());
    }
    long started = System.nanoTime();
    ClaimReading.Read read = reading.devicesOf(key);
    List<Wanted> wanted = read.wanted();
    List<ReservedPod> pods = consumers.of(read.claim()).orElse(List.of());
    var made = new Tally();
    var devices = wanted.stream().map(ClaimPreparing::planned).toList();
    var begun = new CheckpointClaim(key, false, devices, pods);
    // in memory at once, so other claims and the pool see it; on the disk only before NVML
    // changes anything, so a restart can undo what a crash left. A static device or an idle
    // instance taken as it is leaves nothing to undo: its answer waits for one write, not two.
    records.hold(begun);
    var durable = new Once(() -> records.checkpoint().put(begun));
    var done = new ArrayList<Device>();
    var shared = new ArrayList<DeviceSharing>();
    var cdiDevices = new ArrayList<CdiDevice>();
    int handled = 0;
    boolean finished = false;
    try {
      for (; handled < wanted.size(); handled++) {
        Wanted w = wanted.get(handled);
        Device one = make(key, w, devices.get(handled), made, durable);
        if (one != null) {
          done.add(one);
          shared.add(w.adminAccess() ? new DeviceSharing.Exclusive() : w.sharing());
        }
      }
      cdiDevices.addAll(sharing.shared(key, done, shared));
      finished = true;
    } finally {
      if (!finished && durable.ran()) {
        // what was made stays the claim's (started) until the kubelet's retry or unprepare
        records.put(new CheckpointClaim(key, false, merged(devices, done), pods));
      } else if (!finished) {
        // refused before NVML changed anything: nothing to undo, and the claim owns nothing (its
        // placement may be an instance someone else holds)
        records.remove(begun);
      }
    }
    List<String> ids = cdiDevices.isEmpty() ? List.of() : cdi.write(key.uid(), cdiDevices);
    var answered = withCdi(done, ids);
    records.put(new CheckpointClaim(key, true, answered, pods));
    log.info(
        "claim={} prepared devices={}", key.uid(), answered.stream().map(Device::name).toList());
    records.prepared(key, made.kind(), Duration.ofNanos(System.nanoTime() - started));
    return new PrepareAnswer.Prepared(key, pool, answered);
  }

  /** The device as the checkpoint records it before NVML is touched. */
  private static Device planned(Wanted w) {
    String name = w.device().name();
    ClaimDevice device =
        switch (w.origin()) {
          case WholeGpu(var gpu, var uuid, var _) -> new ClaimDevice.Whole(name, gpu, uuid);
          case StaticSlice(var gpu, var uuid, var giId, var ciId, var migUuid) ->
              new ClaimDevice.Made(
                  name, gpu, uuid, new ClaimDevice.MigInstance(giId, ciId, migUuid));
          case DynamicPlacement(var gpu, var uuid, var _, var giProfileId, var start, var size) ->
              new ClaimDevice.Planned(name, gpu, uuid, giProfileId, new Placement(start, size));
        };
    Kind kind =
        w.adminAccess()
            ? Kind.ADMIN_ACCESS
            : switch (w.origin()) {
              case WholeGpu(var _, var _, var dynamic) -> dynamic ? Kind.CREATED : Kind.STATIC;
              case StaticSlice _ -> Kind.STATIC;
              case DynamicPlacement _ -> Kind.CREATED;
            };
    Optional<Share> share =
        w.sharing() instanceof DeviceSharing.Share(var id, var mib, var percent)
            ? Optional.of(new Share(id, mib << 20, percent))
            : Optional.empty();
    return new Device(device, kind, w.requestNames(), List.of(), w.deviceClass(), share);
  }

  /**
   * The device another claim's share of the same twin was given, when one was: the first share of a
   * twin makes its instance (or hands the GPU out whole), the others join it.
   */
  private Optional<ClaimDevice> sharedWith(ClaimKey key, String name, GpuIndex gpu) {
    if (DeviceNames.sharedDevice(name).isEmpty()) {
      return Optional.empty();
    }
    return records.others(key, gpu).stream()
        .filter(o -> o.deviceName().equals(name))
        .map(ClaimedDevice::device)
        .filter(d -> !(d instanceof ClaimDevice.Planned))
        .findFirst();
  }

  /**
   * Makes or checks one device on its GPU's lane; null for an admin device that does not exist.
   * {@code durable} runs before NVML changes anything.
   */
  private Device make(ClaimKey key, Wanted w, Device planned, Tally tally, Runnable durable) {
    String name = planned.name();
    GpuIndex gpu = planned.gpu();
    return lanes.run(
        gpu,
        () -> {
          if (!w.adminAccess()) {
            ShareOverlaps.check(
                name,
                w.origin(),
                records.others(key, gpu),
                instances.gpuInstances(name, gpu, w.origin().gpuUuid()));
          }
          if (oneNamespace) {
            requireOneNamespace(key, name, gpu);
          }
          Optional<ClaimDevice> joined = sharedWith(key, name, gpu);
          if (joined.isPresent()) {
            if (joined.get() instanceof ClaimDevice.Made m && instances.find(m).isEmpty()) {
              throw new ClaimFailure(
                  "shared device "
                      + name
                      + ": the instance its other shares hold ("
                      + m.instance().migUuid()
                      + ") is gone from GPU "
                      + gpu);
            }
            tally.add(true);
            log.info("claim={} device={} gpu={} joins its other shares", key.uid(), name, gpu);
            return planned.with(rename(joined.get(), name));
          }
          return makeAlone(key, w, planned, tally, durable);
        });
  }

  /** Refuses a share of a twin whose prepared shares are of another namespace. */
  private void requireOneNamespace(ClaimKey key, String name, GpuIndex gpu) {
    if (DeviceNames.sharedDevice(name).isEmpty()) {
      return;
    }
    records.others(key, gpu).stream()
        .filter(o -> o.deviceName().equals(name))
        .map(o -> o.key())
        .filter(other -> !other.namespace().equals(key.namespace()))
        .findFirst()
        .ifPresent(
            other -> {
              throw new ClaimFailure(
                  "shared device "
                      + name
                      + " has shares of namespace "
                      + other.namespace()
                      + " (claim "
                      + other.label()
                      + "), and migd.dra.shares.namespaces=single keeps a device's shares in one"
                      + " namespace");
            });
  }

  /** {@code device} under {@code name} (the same device another share of the twin holds). */
  private static ClaimDevice rename(ClaimDevice device, String name) {
    return switch (device) {
      case ClaimDevice.Whole(var _, var gpu, var uuid) -> new ClaimDevice.Whole(name, gpu, uuid);
      case ClaimDevice.Made(var _, var gpu, var uuid, var instance) ->
          new ClaimDevice.Made(name, gpu, uuid, instance);
      case ClaimDevice.Planned p -> p;
    };
  }

  /** Makes or checks a device no other share holds, on its GPU's lane. */
  private Device makeAlone(ClaimKey key, Wanted w, Device planned, Tally tally, Runnable durable) {
    String name = planned.name();
    GpuIndex gpu = planned.gpu();
    return switch (w.origin()) {
      case WholeGpu(var g, var uuid, var dynamic) -> {
        if (dynamic && !w.adminAccess()) {
          durable.run();
          instances.wholeGpu(name, g, uuid, records.others(key, g));
        }
        yield planned;
      }
      case StaticSlice slice -> {
        if (!w.adminAccess()) {
          instances.requireStatic(name, slice);
        }
        yield planned;
      }
      case DynamicPlacement p when w.adminAccess() ->
          instances
              .existing(name, p)
              .map(m -> planned.with(new ClaimDevice.Made(name, gpu, p.gpuUuid(), m)))
              .orElse(null);
      case DynamicPlacement p -> {
        var made =
            instances
                .reusable(name, p, records.others(key, gpu))
                .orElseGet(
                    () -> {
                      durable.run();
                      return instances.place(name, p, records.others(key, gpu));
                    });
        tally.add(made.reused());
        log.info(
            "claim={} device={} gpu={} gi={} ci={} reused={}",
            key.uid(),
            name,
            gpu,
            made.instance().gpuInstanceId(),
            made.instance().computeInstanceId(),
            made.reused());
        yield planned.with(new ClaimDevice.Made(name, gpu, p.gpuUuid(), made.instance()));
      }
    };
  }

  private static List<Device> merged(List<Device> planned, List<Device> done) {
    var result = new ArrayList<Device>();
    for (Device p : planned) {
      result.add(done.stream().filter(d -> d.name().equals(p.name())).findFirst().orElse(p));
    }
    return result;
  }

  private static List<Device> withCdi(List<Device> done, List<String> ids) {
    if (done.isEmpty()) {
      return List.of();
    }
    if (ids.size() % done.size() != 0) {
      throw new IllegalStateException(
          "the CDI writer answered " + ids.size() + " IDs for " + done.size() + " devices");
    }
    int per = ids.size() / done.size();
    var result = new ArrayList<Device>();
    for (int i = 0; i < done.size(); i++) {
      result.add(done.get(i).withCdi(ids.subList(i * per, (i + 1) * per)));
    }
    return result;
  }

  /**
   * Runs its work the first time it is run, and never again (a claim's devices are made one after
   * another, so nobody waits for it).
   */
  private static final class Once implements Runnable {
    private final Runnable work;
    private final AtomicBoolean done = new AtomicBoolean();

    Once(Runnable work) {
      this.work = work;
    }

    @Override
    public void run() {
      if (done.compareAndSet(false, true)) {
        work.run();
      }
    }

    /** Whether it ran. */
    boolean ran() {
      return done.get();
    }
  }

  /** What a claim's prepare made: instances created or reused. */
  private static final class Tally {
    private volatile boolean created;
    private volatile boolean reused;

    void add(boolean wasReused) {
      if (wasReused) {
        reused = true;
      } else {
        created = true;
      }
    }

    ClaimEvents.PrepareKind kind() {
      return created
          ? ClaimEvents.PrepareKind.CREATED
          : reused ? ClaimEvents.PrepareKind.REUSED : ClaimEvents.PrepareKind.STATIC;
    }
  }
}
