package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevices;
import io.migd.sharing.ClaimSharing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares and unprepares DRA claims on this node (DESIGN.md section 12, "Prepare", "Unprepare",
 * "Checkpoint and restart"). Every claim of a call gets its own answer; claims on different GPUs
 * are prepared at once, each GPU's NVML sequences one at a time on its lane. Every prepare is
 * checkpointed before NVML is touched and after, so {@link #recover} can undo or adopt what a crash
 * left; one claim's prepare is {@link ClaimPreparing}.
 */
public final class ClaimPreparer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClaimPreparer.class);

  private final ClaimReading reading;
  private final ClaimInstances instances;
  private final ClaimCdi cdi;
  private final ClaimRecords records;
  private final ClaimSettings settings;
  private final ClaimNode node;
  private final GpuLanes lanes = new GpuLanes();
  private final ClaimConsumers consumers;
  private final ClaimPreparing preparing;
  private final PreparedSharing sharing;
  private final ClaimEvents events;

  /** Claims a call is working on: the kubelet may repeat a call before the first one ends. */
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * A preparer of the claims {@code source} reads, on {@code node}, telling {@code events} what
   * each prepare took and which GPUs each checkpoint write is on, and reading the pods each claim
   * is reserved for from {@code pods} (at its prepare and at the claim check).
   */
  public ClaimPreparer(
      ClaimSource source,
      ClaimNode node,
      ClaimCdi cdi,
      ClaimSettings settings,
      ClaimEvents events,
      PodSource pods) {
    this(source, node, cdi, settings, events, pods, ClaimSharing.NONE);
  }

  /** A preparer as above that applies each claim's sharing through {@code sharing}. */
  public ClaimPreparer(
      ClaimSource source,
      ClaimNode node,
      ClaimCdi cdi,
      ClaimSettings settings,
      ClaimEvents events,
      PodSource pods,
      ClaimSharing sharing) {
    this.node = Objects.requireNonNull(node);
    this.events = Objects.requireNonNull(events);
    this.consumers = new ClaimConsumers(pods);
    this.reading = new ClaimReading(source, node.pool(), node.reconciled(), settings);
    this.instances =
        new ClaimInstances(node.nvml(), node.catalog(), node.executor(), node.devicePluginPods());
    this.cdi = cdi;
    this.records =
        new ClaimRecords(
            ClaimCheckpoint.open(settings.stateDir(), settings.bootIdFile()),
            Objects.requireNonNull(events));
    this.settings = settings;
    this.sharing = new PreparedSharing(sharing, instances, lanes);
    this.preparing =
        new ClaimPreparing(
            reading,
            instances,
            cdi,
            records,
            lanes,
            consumers,
            this.sharing,
            settings.pool(),
            settings.sharesOneNamespace());
  }

  /** Which claims own which devices (the checkpoint, from memory). */
  public ClaimedDevices claimed() {
    return records.checkpoint();
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
   * process or a device-plugin pod uses them). Call it once, before the first prepare.
   */
  public List<RecoveryFinding> recover(Set<GpuIndex> dynamic) {
    return new CheckpointRecovery(records, instances, cdi, lanes).recover(dynamic);
  }

  /**
   * The periodic claim check: every checkpointed claim that is gone from the API server or no
   * longer allocated from this pool is unprepared; the others' pods are read again. Returns what
   * became of each unprepared claim.
   */
  public List<UnprepareAnswer> claimCheck() {
    var stale = new ArrayList<ClaimKey>();
    for (CheckpointClaim claim : records.checkpoint().claims()) {
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
                records
                    .checkpoint()
                    .update(
                        key.uid(),
                        known -> known.pods().equals(pods) ? known : known.withPods(pods)));
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
      return preparing.prepare(key);
    } catch (ClaimFailure e) {
      log.info("claim={} prepare failed: {}", key.uid(), e.getMessage());
      return new PrepareAnswer.Failed(key, e.getMessage());
    } catch (ShareOverlaps.Overlap e) {
      String sentence = "claim " + key.label() + ": " + e.getMessage();
      log.warn("claim={} prepare failed: {}", key.uid(), sentence);
      events.shareOverlap(key, sentence);
      return new PrepareAnswer.Failed(key, sentence);
    } catch (RuntimeException e) {
      log.warn("claim={} prepare failed", key.uid(), e);
      return new PrepareAnswer.Failed(key, "preparing claim " + key.label() + ": " + sentence(e));
    }
  }

  private UnprepareAnswer unprepareOne(ClaimKey key) {
    try {
      var known = records.checkpoint().get(key.uid());
      if (known.isEmpty()) {
        // a prepare refused before NVML changed anything may have applied some sharing
        sharing.release(key);
        cdi.remove(key.uid());
        return new UnprepareAnswer.Unprepared(key);
      }
      // MPS servers leave the claim's instances before they are destroyed
      sharing.release(
          key,
          known.get().devices().stream()
              .filter(d -> d.share().isPresent())
              .map(Device::gpu)
              .toList());
      boolean now = settings.reclaimAfter().isZero();
      try {
        for (Device d : created(known.get())) {
          lanes.run(
              d.gpu(),
              () -> {
                instances.release(d.device(), records.others(key, d.gpu()), now);
                return null;
              });
        }
        cdi.remove(key.uid());
      } catch (RuntimeException e) {
        // NVML may have changed before the failure: the pool is rebuilt from what is there now
        records.touched(created(known.get()).stream().map(Device::gpu).toList());
        throw e;
      }
      records.remove(known.get());
      if (!now) {
        created(known.get())
            .forEach(d -> lanes.later(d.gpu(), settings.reclaimAfter(), () -> reclaim(d)));
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

  private static List<Device> created(CheckpointClaim claim) {
    return claim.devices().stream().filter(d -> d.kind() == Kind.CREATED).toList();
  }

  /**
   * Destroys, on the GPU's own thread after the claims' work queued before, every GPU instance of
   * dynamic GPU {@code gpu} that has no compute instance and no claim owns: a static plan cut short
   * (a compute instance in use) or a prepare cut short leaves one, and on a dynamic GPU nothing
   * else would ever remove it while it withholds the placements it overlaps. Without a compute
   * instance no process can use it. Returns at once; what was destroyed is logged, and the GPU is
   * observed again and the pool rebuilt. A GPU static by the time its turn comes is left to the
   * reconcile.
   */
  public void sweepHalfMade(GpuIndex gpu) {
    lanes.later(
        gpu,
        Duration.ZERO,
        () -> {
          if (!node.dynamic().test(gpu)) {
            log.info("gpu={} is static now: its half-made GPU instances are the reconcile's", gpu);
            return;
          }
          var swept =
              instances.sweep(
                  gpu, records.others(null, gpu), gi -> gi.computeInstances().isEmpty());
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
            records.touched(Set.of(gpu));
          }
        });
  }

  /**
   * Destroys an instance kept idle for reuse, unless a claim took it, a process uses it, or its GPU
   * is static now (a static layout may have taken the instance as one of its slices).
   */
  private void reclaim(Device d) {
    if (!node.dynamic().test(d.gpu())) {
      log.info("gpu={} device={} kept: the GPU is static now", d.gpu(), d.name());
      return;
    }
    try {
      instances.release(d.device(), records.others(null, d.gpu()), true);
      records.touched(Set.of(d.gpu()));
    } catch (ClaimFailure e) {
      log.info("gpu={} device={} kept: {}", d.gpu(), d.name(), e.getMessage());
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
