package io.migd.claims;

import io.migd.claims.CheckpointClaim.Device;
import io.migd.claims.CheckpointClaim.Kind;
import io.migd.claims.ClaimReading.Wanted;
import io.migd.layout.GpuIndex;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.pool.DeviceOrigin.DynamicPlacement;
import io.migd.pool.DeviceOrigin.StaticSlice;
import io.migd.pool.DeviceOrigin.WholeGpu;
import io.migd.pool.PoolContent;
import io.migd.profiles.GpuModelCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares and unprepares DRA claims on this node (DESIGN.md section 12, "Prepare", "Unprepare",
 * "Checkpoint and restart"). Every claim of a call gets its own answer; claims on different GPUs
 * are prepared at once, each GPU's NVML sequences one at a time on its lane. Every prepare is
 * checkpointed before NVML is touched and after, so {@link #recover} can undo or adopt what a crash
 * left.
 */
public final class ClaimPreparer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClaimPreparer.class);

  private final ClaimReading reading;
  private final ClaimInstances instances;
  private final ClaimCdi cdi;
  private final ClaimCheckpoint checkpoint;
  private final ClaimSettings settings;
  private final GpuLanes lanes = new GpuLanes();
  private final ClaimEvents events;
  private final ClaimConsumers consumers;

  /** Claims a call is working on: the kubelet may repeat a call before the first one ends. */
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * A preparer over one NVML session. {@code pool} is the pool as published now; {@code reconciled}
   * says whether the reconcile loop has reconciled a GPU yet.
   */
  public ClaimPreparer(
      ClaimSource source,
      Supplier<PoolContent> pool,
      Predicate<GpuIndex> reconciled,
      Nvml nvml,
      GpuModelCatalog catalog,
      ClaimCdi cdi,
      ClaimSettings settings) {
    this(source, pool, reconciled, nvml, catalog, cdi, settings, ClaimEvents.NONE);
  }

  /** A preparer that tells {@code events} what each prepare took and which GPUs it touched. */
  public ClaimPreparer(
      ClaimSource source,
      Supplier<PoolContent> pool,
      Predicate<GpuIndex> reconciled,
      Nvml nvml,
      GpuModelCatalog catalog,
      ClaimCdi cdi,
      ClaimSettings settings,
      ClaimEvents events) {
    this(source, pool, reconciled, nvml, catalog, cdi, settings, events, PodSource.NONE);
  }

  /**
   * A preparer that also reads the pods each claim is reserved for from {@code pods}, when the
   * claim is prepared and at the claim check.
   */
  public ClaimPreparer(
      ClaimSource source,
      Supplier<PoolContent> pool,
      Predicate<GpuIndex> reconciled,
      Nvml nvml,
      GpuModelCatalog catalog,
      ClaimCdi cdi,
      ClaimSettings settings,
      ClaimEvents events,
      PodSource pods) {
    this.events = Objects.requireNonNull(events);
    this.consumers = new ClaimConsumers(pods);
    this.reading = new ClaimReading(source, pool, reconciled, settings);
    this.instances = new ClaimInstances(nvml, catalog);
    this.cdi = cdi;
    this.checkpoint = ClaimCheckpoint.open(settings.stateDir(), settings.bootIdFile());
    this.settings = settings;
  }

  /** Which claims own which devices (the checkpoint, from memory). */
  public ClaimCheckpoint claimed() {
    return checkpoint;
  }

  /** Prepares the claims; returns when each has its answer, in the order given. */
  public List<PrepareAnswer> prepare(List<ClaimKey> claims) {
    return each(claims, key -> alone(key, this::prepareOne, PrepareAnswer.Failed::new));
  }

  /** Unprepares the claims; an unknown claim is unprepared. */
  public List<UnprepareAnswer> unprepare(List<ClaimKey> claims) {
    return each(claims, key -> alone(key, this::unprepareOne, UnprepareAnswer.Failed::new));
  }

  /** Runs {@code work} unless another call works on the claim; then a retryable error. */
  private <A> A alone(
      ClaimKey key, Function<ClaimKey, A> work, BiFunction<ClaimKey, String, A> busy) {
    if (!inFlight.add(key.uid())) {
      return busy.apply(
          key, "claim " + key.label() + " is being prepared or unprepared by another call");
    }
    try {
      return work.apply(key);
    } finally {
      inFlight.remove(key.uid());
    }
  }

  /**
   * Restart: undoes what a crash left half made, adopts completed claims' instances, and sweeps the
   * unowned instances of the {@code dynamic} GPUs (destroyed when idle, kept and reported when a
   * process uses them). Call it once, before the first prepare.
   */
  public List<RecoveryFinding> recover(Set<GpuIndex> dynamic) {
    return new CheckpointRecovery(checkpoint, instances, cdi, lanes).recover(dynamic);
  }

  /**
   * The periodic claim check: every checkpointed claim that is gone from the API server or no
   * longer allocated from this pool is unprepared; the others' pods are read again. Returns what
   * became of each unprepared claim.
   */
  public List<UnprepareAnswer> claimCheck() {
    var stale = new ArrayList<ClaimKey>();
    for (CheckpointClaim claim : checkpoint.claims()) {
      switch (reading.check(claim.claim())) {
        case ClaimReading.Checked.Unknown _ -> {}
        case ClaimReading.Checked.Stale(var why) -> {
          log.info("claim={} unpreparing: {}", claim.claim().uid(), why);
          stale.add(claim.claim());
        }
        case ClaimReading.Checked.Current(var now) -> refreshPods(claim.claim(), now);
      }
    }
    return stale.isEmpty() ? List.of() : unprepare(stale);
  }

  /**
   * Records the claim's pods as read now, unless none can be read. It takes no claim of its own: a
   * kubelet's prepare or unprepare of the claim at the same moment must not be refused for it. The
   * checkpoint changes only the pods of a claim it still holds, so an unprepare is never undone.
   */
  private void refreshPods(ClaimKey key, AllocatedClaim now) {
    consumers
        .of(now)
        .ifPresent(
            pods ->
                checkpoint.update(
                    key.uid(), known -> known.pods().equals(pods) ? known : known.withPods(pods)));
  }

  private <A> List<A> each(List<ClaimKey> claims, Function<ClaimKey, A> one) {
    if (claims.size() == 1) {
      return List.of(one.apply(claims.getFirst()));
    }
    List<Future<A>> answers;
    // closing waits for every claim's answer; each answer catches its own failure
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      answers = claims.stream().map(claim -> threads.submit(() -> one.apply(claim))).toList();
    }
    return answers.stream().map(Future::resultNow).toList();
  }

  private PrepareAnswer prepareOne(ClaimKey key) {
    try {
      var known = checkpoint.get(key.uid());
      if (known.isPresent() && known.get().completed()) {
        return new PrepareAnswer.Prepared(key, answers(known.get().devices()));
      }
      long started = System.nanoTime();
      ClaimReading.Read read = reading.devicesOf(key);
      List<Wanted> wanted = read.wanted();
      List<ReservedPod> pods = consumers.of(read.claim()).orElse(List.of());
      var made = new Tally();
      var devices = new ArrayList<Device>();
      for (Wanted w : wanted) {
        devices.add(planned(w));
      }
      var begun = new CheckpointClaim(key, false, devices, pods);
      // in memory at once, so other claims and the pool see it; on the disk only before NVML
      // changes anything, so a restart can undo what a crash left. A static device or an idle
      // instance taken as it is leaves nothing to undo: its answer waits for one write, not two.
      checkpoint.hold(begun);
      var durable = new Once(() -> checkpoint.put(begun));
      var done = new ArrayList<Device>();
      var cdiDevices = new ArrayList<CdiDevice>();
      int handled = 0;
      try {
        for (; handled < wanted.size(); handled++) {
          Device one = make(key, wanted.get(handled), devices.get(handled), made, durable);
          if (one != null) {
            done.add(one);
            cdiDevices.add(
                new CdiDevice(
                    one.name(),
                    lanes.run(
                        one.gpu(), () -> instances.minor(one.name(), one.gpu(), one.gpuUuid())),
                    one.gpuUuid(),
                    one.gpuInstanceId(),
                    one.computeInstanceId()));
          }
        }
      } finally {
        if (handled < wanted.size()) {
          // what was made stays the claim's (started) until the kubelet's retry or unprepare
          checkpoint.put(new CheckpointClaim(key, false, merged(devices, done), pods));
        }
        tell(() -> events.touched(gpus(devices)));
      }
      List<String> ids = cdiDevices.isEmpty() ? List.of() : cdi.write(key.uid(), cdiDevices);
      var answered = withCdi(done, ids);
      checkpoint.put(new CheckpointClaim(key, true, answered, pods));
      log.info(
          "claim={} prepared devices={}", key.uid(), answered.stream().map(Device::name).toList());
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      tell(() -> events.prepared(key, made.kind(), took));
      return new PrepareAnswer.Prepared(key, answers(answered));
    } catch (ClaimFailure e) {
      log.info("claim={} prepare failed: {}", key.uid(), e.getMessage());
      return new PrepareAnswer.Failed(key, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("claim={} prepare failed", key.uid(), e);
      return new PrepareAnswer.Failed(key, "preparing claim " + key.label() + ": " + sentence(e));
    }
  }

  /** The device as the checkpoint records it before NVML is touched. */
  private static Device planned(Wanted w) {
    Kind kind = w.adminAccess() ? Kind.ADMIN_ACCESS : Kind.STATIC;
    return switch (w.origin()) {
      case WholeGpu(var gpu, var uuid, var _) ->
          new Device(
              w.device().name(),
              kind,
              gpu,
              uuid,
              -1,
              -1,
              -1,
              -1,
              -1,
              "",
              w.requestNames(),
              List.of(),
              w.deviceClass());
      case StaticSlice(var gpu, var uuid, var giId, var ciId, var migUuid) ->
          new Device(
              w.device().name(),
              kind,
              gpu,
              uuid,
              -1,
              giId,
              ciId,
              -1,
              -1,
              migUuid,
              w.requestNames(),
              List.of(),
              w.deviceClass());
      case DynamicPlacement(var gpu, var uuid, var profile, var giProfileId, var start, var size) ->
          new Device(
              w.device().name(),
              w.adminAccess() ? Kind.ADMIN_ACCESS : Kind.CREATED,
              gpu,
              uuid,
              giProfileId,
              -1,
              -1,
              start,
              size,
              "",
              w.requestNames(),
              List.of(),
              w.deviceClass());
    };
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
        () ->
            switch (w.origin()) {
              case WholeGpu(var g, var uuid, var dynamic) -> {
                if (dynamic && !w.adminAccess()) {
                  durable.run();
                  instances.wholeGpu(name, g, uuid, others(key, g));
                }
                yield planned;
              }
              case StaticSlice slice -> {
                if (!w.adminAccess()) {
                  instances.requireStatic(name, slice);
                }
                yield planned;
              }
              case DynamicPlacement p -> {
                if (w.adminAccess()) {
                  yield instances
                      .existing(name, p)
                      .map(m -> planned.made(m.gpuInstanceId(), m.computeInstanceId(), m.migUuid()))
                      .orElse(null);
                }
                var made =
                    instances
                        .reusable(name, p, others(key, p.gpu()))
                        .orElseGet(
                            () -> {
                              durable.run();
                              return instances.place(name, p, others(key, p.gpu()));
                            });
                tally.add(made.reused());
                log.info(
                    "claim={} device={} gpu={} gi={} ci={} reused={}",
                    key.uid(),
                    name,
                    p.gpu(),
                    made.gpuInstanceId(),
                    made.computeInstanceId(),
                    made.reused());
                yield planned.made(made.gpuInstanceId(), made.computeInstanceId(), made.migUuid());
              }
            });
  }

  /** What the other claims own on a GPU. */
  private List<Owner> others(ClaimKey key, GpuIndex gpu) {
    return owners(checkpoint, gpu, key.uid());
  }

  static List<Owner> owners(ClaimCheckpoint checkpoint, GpuIndex gpu, String exceptUid) {
    return checkpoint.claims().stream()
        .filter(c -> !c.claim().uid().equals(exceptUid))
        .flatMap(
            c ->
                c.devices().stream()
                    .filter(d -> d.gpu().equals(gpu) && d.kind() != Kind.ADMIN_ACCESS)
                    .map(d -> new Owner(c.claim(), d)))
        .toList();
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

  private List<AnsweredDevice> answers(List<Device> devices) {
    return devices.stream()
        .map(d -> new AnsweredDevice(d.requestNames(), settings.pool(), d.name(), d.cdiDeviceIds()))
        .toList();
  }

  private UnprepareAnswer unprepareOne(ClaimKey key) {
    try {
      var known = checkpoint.get(key.uid());
      if (known.isEmpty()) {
        cdi.remove(key.uid());
        return new UnprepareAnswer.Unprepared(key);
      }
      try {
        boolean now = settings.reclaimAfter().isZero();
        for (Device d : known.get().devices()) {
          if (d.kind() == Kind.CREATED) {
            lanes.run(
                d.gpu(),
                () -> {
                  instances.release(d, owners(checkpoint, d.gpu(), key.uid()), now);
                  return null;
                });
          }
        }
        cdi.remove(key.uid());
        checkpoint.remove(key.uid());
        if (!now) {
          known.get().devices().stream()
              .filter(d -> d.kind() == Kind.CREATED)
              .forEach(d -> lanes.later(d.gpu(), settings.reclaimAfter(), () -> reclaim(d)));
        }
      } finally {
        // after the destroys, so the snapshot observes what they left
        tell(() -> events.touched(gpus(known.get().devices())));
      }
      log.info("claim={} unprepared", key.uid());
      return new UnprepareAnswer.Unprepared(key);
    } catch (ClaimFailure e) {
      log.info("claim={} unprepare failed: {}", key.uid(), e.getMessage());
      return new UnprepareAnswer.Failed(key, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("claim={} unprepare failed", key.uid(), e);
      return new UnprepareAnswer.Failed(
          key, "unpreparing claim " + key.label() + ": " + sentence(e));
    }
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

  private static Set<GpuIndex> gpus(List<Device> devices) {
    return devices.stream().map(Device::gpu).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Tells a listener; one that throws is logged and changes no answer. */
  private static void tell(Runnable told) {
    try {
      told.run();
    } catch (RuntimeException e) {
      log.warn("a listener of prepares and unprepares failed", e);
    }
  }

  /**
   * Destroys, on the GPU's own thread after the claims' work queued before, every GPU instance of
   * dynamic GPU {@code gpu} that has no compute instance and no claim owns: a static plan cut short
   * (a compute instance in use) or a prepare cut short leaves one, and on a dynamic GPU nothing
   * else would ever remove it while it withholds the placements it overlaps. Without a compute
   * instance no process can use it. Returns at once; what was destroyed is logged, and the GPU is
   * observed again and the pool rebuilt.
   */
  public void sweepHalfMade(GpuIndex gpu) {
    lanes.later(
        gpu,
        Duration.ZERO,
        () -> {
          var swept =
              instances.sweep(
                  gpu, owners(checkpoint, gpu, ""), gi -> gi.computeInstances().isEmpty());
          for (var one : swept) {
            log.info(
                "gpu={} gi={} ({} at {}) without a compute instance, owned by no claim: {}",
                gpu,
                one.instance().id(),
                one.instance().profile(),
                one.instance().placement().start(),
                one.kept() ? "kept, in use by " + one.holders() : "destroyed");
          }
          if (!swept.isEmpty()) {
            tell(() -> events.touched(Set.of(gpu)));
          }
        });
  }

  /**
   * Destroys an instance kept idle for reuse, unless a claim took it or a process uses it; the GPU
   * is observed again and the pool rebuilt either way (issue 29: the placements it withheld).
   */
  private void reclaim(Device d) {
    try {
      instances.release(d, owners(checkpoint, d.gpu(), ""), true);
    } catch (ClaimFailure e) {
      log.info("gpu={} gi={} kept: {}", d.gpu(), d.gpuInstanceId(), e.getMessage());
    } finally {
      tell(() -> events.touched(Set.of(d.gpu())));
    }
  }

  @Override
  public void close() {
    lanes.close();
  }

  /**
   * What went wrong, for the kubelet's event: NVML's failure as the binding words it (the call, its
   * code and what the code means), anything else as an error in migd whose trace is in the log.
   */
  static String sentence(RuntimeException e) {
    if (e instanceof NvmlException nvml) {
      return "NVML failed: " + nvml.getMessage();
    }
    return "an error in migd ("
        + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : ": " + e.getMessage())
        + "); migd's log has its trace";
  }
}
