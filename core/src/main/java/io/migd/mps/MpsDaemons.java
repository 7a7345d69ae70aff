package io.migd.mps;

import io.migd.devices.NodeSharing;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.GpuModelCatalog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One MPS control daemon per MPS-shared GPU or MIG slice, run by the {@code -mps} DaemonSet's
 * supervisor: asked for ({@code <root>/<uuid>/daemon.json}) after a reconcile that leaves the
 * device shared by MPS, with its limits (each client {@code floor(100/N)} % of the threads and
 * {@code floor(memory/N)} MiB, which the supervisor sets), its replicas unhealthy while the
 * supervisor says it does not run, and stopped (request removed, {@code quit}) before its slice is
 * destroyed or its sharing is switched off. Daemons found running at start (by their requests and
 * the supervisor's {@code state} files) are adopted, and never stopped while clients use their
 * device: a restart of migd touches no daemon. The MPS servers the daemons report ({@code
 * get_server_list}) never count as users of their device.
 *
 * <p>A state's pid is believed only when the process it names is the control daemon: run with
 * {@code -f}, and started no later than the state file was written (a pid the kernel reused names a
 * process started after it; issue 17).
 *
 * <p>Called from the reconcile thread ({@link #reconciled}), the GPUs' plan threads ({@link
 * #planMade}, one at a time) and the supervision thread ({@link #check}). The state lock of {@link
 * MpsDaemonState} guards the maps for a few field updates only: no process runs, no file is read
 * and no listener is told while it is held, so a GPU's plan never waits behind a daemon's start
 * (issue 17: with a reset in flight that made a lock cycle). {@link #reconciled} and {@link #check}
 * take turns on a second lock, which the GPUs' threads never take.
 *
 * <p>The work is split by step: {@link AdoptableDaemons} finds daemons at start, {@link
 * DaemonCommands} asks for, waits for and stops one daemon, {@link DaemonLifecycle} brings one up
 * or down, {@link DaemonReconciliation} follows an outcome and {@link DaemonSupervision} follows
 * the gone.
 */
public final class MpsDaemons implements ProgressListener {
  private final MpsDaemonState state = new MpsDaemonState();
  private final GpuModelCatalog catalog;
  private final AdoptableDaemons adoptable;
  private final DaemonCommands commands;
  private final DaemonReconciliation reconciliation;
  private final DaemonSupervision supervision;

  /**
   * {@link #reconciled} and {@link #check} take turns: each runs processes, outside the state lock.
   */
  private final ReentrantLock work = new ReentrantLock();

  /**
   * The supervisor's daemons as {@code settings} say, talked to with {@code control}, health told
   * to {@code listener}.
   */
  public MpsDaemons(
      MpsControl control, Settings settings, MpsListener listener, GpuModelCatalog catalog) {
    this.catalog = catalog;
    var states = new StateFiles(settings.paths());
    var requests = new DaemonRequests(settings.paths(), settings.shmSizeBytes());
    this.adoptable = new AdoptableDaemons(settings.paths(), requests, states);
    this.commands =
        new DaemonCommands(control, settings.paths(), requests, states, settings.startTimeout());
    var lifecycle = new DaemonLifecycle(state, commands, states, listener);
    this.reconciliation = new DaemonReconciliation(state, commands, lifecycle, states, requests);
    this.supervision = new DaemonSupervision(state, lifecycle, states);
  }

  /**
   * Where the daemons live and what migd asks the supervisor for.
   *
   * @param paths {@code migd.mps.root}
   * @param shmSizeBytes each daemon's tmpfs ({@code migd.mps.shm-size})
   * @param startTimeout how long migd waits for the supervisor to say a daemon runs ({@code
   *     migd.mps.start-timeout})
   */
  public record Settings(MpsPaths paths, long shmSizeBytes, Duration startTimeout) {
    /** The defaults under {@code paths}: 64 MiB of shm, 30 s to start. */
    public static Settings under(MpsPaths paths) {
      return new Settings(paths, 64L << 20, Duration.ofSeconds(30));
    }

    /** Checks the size and the timeout are positive. */
    public Settings {
      Objects.requireNonNull(paths);
      if (shmSizeBytes <= 0 || startTimeout.isNegative() || startTimeout.isZero()) {
        throw new IllegalArgumentException(
            "the shm size and the start timeout must be positive: "
                + shmSizeBytes
                + ", "
                + startTimeout);
      }
    }
  }

  /** Looks for daemons left running by an earlier migd: they are adopted, never started twice. */
  public void findRunning() {
    state.addAdoptable(adoptable.find());
  }

  /**
   * After a reconcile: a daemon for every device {@code sharing} shares by MPS (adopted when one
   * runs), limits sent again where the replicas changed, and {@code quit} for daemons whose device
   * is no longer shared by MPS (an adopted one only once no client uses its device).
   */
  public void reconciled(ObservedNode observed, NodeSharing sharing) {
    var wanted = new LinkedHashMap<String, MpsDevice>();
    MpsDevices.wanted(observed, sharing, catalog).forEach(d -> wanted.put(d.uuid(), d));
    work.lock();
    try {
      reconciliation.reconciled(observed, wanted);
    } finally {
      work.unlock();
    }
  }

  /**
   * Starts again every daemon whose process is gone (its replicas unhealthy until it runs), and
   * refreshes which processes are MPS servers. The supervision thread calls this periodically.
   */
  public void check() {
    work.lock();
    try {
      supervision.check();
    } finally {
      work.unlock();
    }
  }

  /** Whether {@code pid} is an MPS server of one of the daemons: never a user of its device. */
  public boolean isServer(int pid) {
    return state.isServer(pid);
  }

  /** The devices served now, by UUID, with their daemon's pid. */
  public Map<String, Long> running() {
    return state.running();
  }

  /**
   * Before a GPU's plan runs: {@code quit} to the daemons of what it destroys or unshares. Runs on
   * the GPU's thread: it waits for no start in flight, whose daemon quits when it is up instead.
   */
  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    state
        .forgetAffected(plan.steps(), MpsDaemons::affectedBy)
        .forEach(
            (daemon, step) ->
                commands.sendQuit(
                    daemon.device().uuid(), daemon.pid(), "step " + step + " destroys its device"));
  }

  /** The devices whose daemon {@code step} destroys or unshares. */
  private static Predicate<MpsDevice> affectedBy(Step step) {
    return switch (step) {
      case Step.EnableMig(var g) -> d -> d.gpu().equals(g) && d.isWholeGpu();
      case Step.DisableMig(var g) -> d -> d.gpu().equals(g) && !d.isWholeGpu();
      case Step.DestroyGpuInstance(var g, var gi) ->
          d -> d.gpu().equals(g) && d.gpuInstanceId() == gi;
      case Step.DestroyComputeInstance(var g, var gi, var ci) ->
          d -> d.gpu().equals(g) && d.gpuInstanceId() == gi && d.computeInstanceId() == ci;
      case Step.CreateGpuInstance _, Step.CreateComputeInstance _ -> d -> false;
    };
  }

  /** The environment of the control command talking to the daemon of {@code uuid}. */
  public Map<String, String> environment(String uuid) {
    return commands.environment(uuid);
  }
}
