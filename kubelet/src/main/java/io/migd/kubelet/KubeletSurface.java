package io.migd.kubelet;

import io.migd.devices.Device;
import io.migd.devices.DeviceHealth;
import io.migd.devices.Inventory;
import io.migd.devices.InventoryBuilder;
import io.migd.devices.MigStrategy;
import io.migd.devices.NumaNodes;
import io.migd.devices.XidWatcher;
import io.migd.execute.ProgressListener;
import io.migd.handoff.LatestWins;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.mps.MpsListener;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the kubelet sees, kept true to the GPUs: after every reconcile it builds the inventory from
 * the node as the reconcile left it and publishes it; before a plan touches a GPU it withdraws the
 * slices the plan destroys (the whole GPU for a MIG mode change); XIDs and the paths back to health
 * change the devices' health in between. Nothing is published before the first reconcile has ended.
 */
public final class KubeletSurface
    implements OutcomeListener, ProgressListener, XidWatcher.Sink, MpsListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubeletSurface.class);
  private static final int ANY = Integer.MIN_VALUE;

  /**
   * @param strategy how MIG slices become resources
   * @param recoveryPeriod how long a device stays unhealthy after its last critical XID when NVML
   *     answers for it
   * @param healthCheckInterval how often that recovery is checked
   * @param numa the NUMA node of each GPU, which its devices carry to the kubelet
   */
  public record Settings(
      MigStrategy strategy, Duration recoveryPeriod, Duration healthCheckInterval, NumaNodes numa) {
    /** Settings whose devices carry no NUMA node. */
    public Settings(MigStrategy strategy, Duration recoveryPeriod, Duration healthCheckInterval) {
      this(strategy, recoveryPeriod, healthCheckInterval, NumaNodes.UNKNOWN);
    }
  }

  /** Generates the CDI specs of the devices about to be advertised; throws when it cannot. */
  @FunctionalInterface
  public interface CdiRefresh {
    /** Generates nothing: CDI names are not handed out. */
    CdiRefresh NONE = () -> {};

    /** Generates the specs. */
    void refresh();
  }

  /** Slices (or a whole GPU) withdrawn while a plan runs on their GPU. */
  private record Withdrawal(GpuIndex gpu, int gpuInstanceId, int computeInstanceId) {
    boolean covers(Device d) {
      return d.gpu().equals(gpu)
          && (gpuInstanceId == ANY || d.gpuInstanceId() == gpuInstanceId)
          && (computeInstanceId == Usage.ALL_COMPUTE_INSTANCES
              || computeInstanceId == ANY
              || d.computeInstanceId() == computeInstanceId);
    }
  }

  private final DeviceHealth health;
  private final CdiRefresh cdi;
  private final Predicate<Device> nvmlAnswers;
  private final Settings settings;
  private final Clock clock;
  private final ScheduledExecutorService healthChecks;

  /**
   * Guards the fields below for a few updates: no NVML call, process, I/O or publication happens
   * while it is held (issue 17: the health check's NVML calls under it, behind a reset, closed a
   * lock cycle with the GPUs' plan threads).
   */
  private final Object lock = new Object();

  private Inventory built;
  private Inventory published;
  private long version;
  private final Set<Withdrawal> withdrawn = new HashSet<>();

  /**
   * Hands the newest inventory to the publisher, which serves sockets and registers with the
   * kubelet, with no lock held across that: an older inventory never overwrites a newer one at the
   * kubelet, and a thread that only has news (an XID, a health change) never waits behind another's
   * socket work.
   */
  private final LatestWins<Inventory> publishing;

  /** An inventory to hand to the publisher, numbered in the order they were made. */
  private record Publication(long version, Inventory inventory) {}

  /**
   * A surface publishing to {@code publisher} (the device plugins); {@code nvmlAnswers} says
   * whether NVML still answers for a device. Each GPU's sharing comes from the outcome, as the
   * reconcile resolved it.
   */
  public KubeletSurface(
      Consumer<Inventory> publisher,
      DeviceHealth health,
      CdiRefresh cdi,
      Predicate<Device> nvmlAnswers,
      Settings settings,
      Clock clock) {
    this.publishing = new LatestWins<>(publisher);
    this.health = health;
    this.cdi = cdi;
    this.nvmlAnswers = nvmlAnswers;
    this.settings = settings;
    this.clock = clock;
    this.healthChecks =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("migd-device-health").daemon(true).unstarted(r));
  }

  /**
   * Whether NVML answers for a device: its parent (GPU or MIG device) is found and reports memory.
   */
  public static Predicate<Device> nvmlAnswers(Nvml nvml) {
    return device -> {
      try {
        nvml.memory(nvml.deviceByUuid(device.parentUuid()));
        return true;
      } catch (NvmlException e) {
        return false;
      }
    };
  }

  /** Starts the periodic check of the path back to health after a quiet recovery period. */
  public void start() {
    long every = Math.max(1, settings.healthCheckInterval().toMillis());
    healthChecks.scheduleWithFixedDelay(this::checkRecovery, every, every, TimeUnit.MILLISECONDS);
  }

  /** What the kubelet was last told; empty before the first reconcile ended. */
  public Inventory current() {
    synchronized (lock) {
      return published == null ? Inventory.EMPTY : published;
    }
  }

  /** A reset that, when done, tells the health of the GPU's devices that they start afresh. */
  public GpuReset watching(GpuReset reset) {
    return gpu -> {
      GpuReset.Result result = reset.reset(gpu);
      if (result instanceof GpuReset.Result.Done) {
        health.gpuReset(gpu.index());
      }
      return result;
    };
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    Inventory before;
    synchronized (lock) {
      before = built;
    }
    Inventory next = outcome.error().isEmpty() ? inventory(outcome, before) : null;
    if (next == null) {
      log.warn(
          "the GPUs could not be listed; the kubelet keeps the last list, less what plans"
              + " withdrew: {}",
          outcome.error());
    } else if (before == null || !deviceIds(before).containsAll(deviceIds(next))) {
      refreshCdi();
    }
    Publication publication = null;
    synchronized (lock) {
      if (next != null) {
        built = next;
        withdrawn.clear();
      }
      // without a new list the withdrawals stay: a plan may have destroyed what they cover
      if (built != null) {
        publication = nextLocked(true);
      }
    }
    publishAndWait(publication);
  }

  /**
   * The inventory of the node as the reconcile left it; a GPU it could not observe keeps its
   * devices from {@code previous}, unhealthy.
   */
  private Inventory inventory(Outcome outcome, Inventory previous) {
    ObservedNode observed = outcome.observed();
    Inventory fresh = InventoryBuilder.build(outcome, settings.strategy(), settings.numa());
    Set<GpuIndex> unseen = new HashSet<>(outcome.results().keySet());
    observed.gpus().forEach(g -> unseen.remove(g.index()));
    if (unseen.isEmpty() || previous == null) {
      return fresh;
    }
    log.warn("gpus={} could not be observed; their devices stay listed, unhealthy", unseen);
    var merged = new TreeMap<String, List<Device>>();
    fresh.resources().forEach((name, devices) -> merged.put(name, new ArrayList<>(devices)));
    previous
        .resources()
        .forEach(
            (name, devices) ->
                devices.stream()
                    .filter(d -> unseen.contains(d.gpu()))
                    .forEach(
                        d ->
                            merged
                                .computeIfAbsent(name, k -> new ArrayList<>())
                                .add(d.withHealthy(false))));
    return new Inventory(merged, fresh.notes());
  }

  private void refreshCdi() {
    try {
      cdi.refresh();
    } catch (RuntimeException e) {
      log.error(
          "CDI refresh failed; new devices are advertised, but their CDI names may not resolve"
              + " until a refresh succeeds: {}",
          e.getMessage());
    }
  }

  private static Set<String> deviceIds(Inventory inventory) {
    var ids = new HashSet<String>();
    inventory
        .resources()
        .forEach((name, devices) -> devices.forEach(d -> ids.add(name + " " + d.id())));
    return ids;
  }

  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    var withdrawals = new ArrayList<Withdrawal>();
    for (Step step : plan.steps()) {
      switch (step) {
        case Step.EnableMig(var g) -> withdrawals.add(new Withdrawal(g, ANY, ANY));
        case Step.DisableMig(var g) -> withdrawals.add(new Withdrawal(g, ANY, ANY));
        case Step.DestroyGpuInstance(var g, var gi) ->
            withdrawals.add(new Withdrawal(g, gi, Usage.ALL_COMPUTE_INSTANCES));
        case Step.DestroyComputeInstance(var g, var gi, var ci) ->
            withdrawals.add(new Withdrawal(g, gi, ci));
        case Step.CreateGpuInstance _, Step.CreateComputeInstance _ -> {}
      }
    }
    if (withdrawals.isEmpty()) {
      return;
    }
    Publication publication = null;
    synchronized (lock) {
      withdrawn.addAll(withdrawals);
      if (built != null) {
        log.info("gpu={} withdrawing the slices its plan destroys before it runs", gpu);
        publication = nextLocked(false);
      }
    }
    publishAndWait(publication);
  }

  @Override
  public void stepDone(Step step) {
    switch (step) {
      case Step.DestroyGpuInstance(var gpu, var gi) ->
          health.instanceGone(gpu, gi, Usage.ALL_COMPUTE_INSTANCES);
      case Step.DestroyComputeInstance(var gpu, var gi, var ci) -> health.instanceGone(gpu, gi, ci);
      case Step.EnableMig _,
          Step.DisableMig _,
          Step.CreateGpuInstance _,
          Step.CreateComputeInstance _ -> {}
    }
  }

  @Override
  public void daemonDown(String uuid) {
    Publication publication = null;
    synchronized (lock) {
      if (health.mpsDaemonDown(uuid) && built != null) {
        publication = nextLocked(false);
      }
    }
    publish(publication);
  }

  @Override
  public void daemonUp(String uuid) {
    Publication publication = null;
    synchronized (lock) {
      if (health.mpsDaemonUp(uuid) && built != null) {
        publication = nextLocked(false);
      }
    }
    publish(publication);
  }

  @Override
  public void xid(XidWatcher.Xid xid) {
    Publication publication = null;
    synchronized (lock) {
      Inventory known = built == null ? Inventory.EMPTY : built;
      if (health.onXid(known, xid.gpu(), xid.gpuInstanceId(), xid.code(), clock.instant())
          && built != null) {
        publication = nextLocked(false);
      }
    }
    publish(publication);
  }

  /** NVML is asked outside the lock: it may wait behind a GPU reset. */
  private void checkRecovery() {
    try {
      if (!health.recover(clock.instant(), settings.recoveryPeriod(), nvmlAnswers)) {
        return;
      }
      Publication publication = null;
      synchronized (lock) {
        if (built != null) {
          publication = nextLocked(false);
        }
      }
      publish(publication);
    } catch (RuntimeException e) {
      log.error("device health check failed; it runs again", e);
    }
  }

  /** What the kubelet should see now, numbered; null when it has seen it already. */
  private Publication nextLocked(boolean always) {
    Inventory next =
        health.apply(built.without(d -> withdrawn.stream().anyMatch(w -> w.covers(d))));
    if (always || !next.equals(published)) {
      published = next;
      return new Publication(++version, next);
    }
    return null;
  }

  /**
   * Hands {@code publication} to the publisher and returns once it, or a newer one, went: what the
   * reconcile and a plan about to run show the kubelet is shown before they go on.
   */
  private void publishAndWait(Publication publication) {
    if (publication != null) {
      publishing.offerAndWait(publication.version(), publication.inventory());
    }
  }

  /**
   * Hands {@code publication} to the publisher; returns at once when another thread is publishing,
   * which publishes it, or a newer one, next.
   */
  private void publish(Publication publication) {
    if (publication != null) {
      publishing.offer(publication.version(), publication.inventory());
    }
  }

  @Override
  public void close() {
    healthChecks.shutdownNow();
  }
}
