package io.migd.mps;

import io.migd.devices.NodeSharing;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.GpuModelCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One MPS control daemon per MPS-shared GPU or MIG slice: started after a reconcile that leaves the
 * device shared by MPS, given its limits (each client {@code floor(100/N)} % of the threads and
 * {@code floor(memory/N)} MiB), started again when its process is gone (its replicas unhealthy
 * meanwhile), and told to {@code quit} before its slice is destroyed or its sharing is switched
 * off. Daemons found running at start (by their pid files under {@code migd.mps.root}) are adopted,
 * never started twice, and never stopped while clients use their device. The MPS servers the
 * daemons report ({@code get_server_list}) never count as users of their device.
 *
 * <p>A pid file is believed only when the process it names is the control daemon: started with
 * {@code -d}, and no later than the pid file was written (a pid the kernel reused names a process
 * started after it; issue 17). A pid file naming another process is stale and goes before a start.
 *
 * <p>Called from the reconcile thread ({@link #reconciled}), the GPUs' plan threads ({@link
 * #planMade}, one at a time) and the supervision thread ({@link #check}). The state lock of {@link
 * MpsDaemonState} guards the maps for a few field updates only: no process runs, no file is read
 * and no listener is told while it is held, so a GPU's plan never waits behind a daemon's start
 * (issue 17: with a reset in flight that made a lock cycle). {@link #reconciled} and {@link #check}
 * take turns on a second lock, which the GPUs' threads never take.
 *
 * <p>The work is split by step: {@link AdoptableDaemons} finds daemons at start, {@link
 * DaemonCommands} runs one daemon's processes, {@link DaemonLifecycle} brings one up or down,
 * {@link DaemonReconciliation} follows an outcome and {@link DaemonSupervision} restarts the gone.
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

  /** Daemons run with {@code control}, under {@code paths}, health told to {@code listener}. */
  public MpsDaemons(
      MpsControl control, MpsPaths paths, MpsListener listener, GpuModelCatalog catalog) {
    this.catalog = catalog;
    var pidFiles = new PidFiles(paths);
    this.adoptable = new AdoptableDaemons(paths, pidFiles);
    this.commands = new DaemonCommands(control, paths, pidFiles);
    var lifecycle = new DaemonLifecycle(state, commands, pidFiles, listener);
    this.reconciliation = new DaemonReconciliation(state, commands, lifecycle, pidFiles);
    this.supervision = new DaemonSupervision(state, lifecycle, pidFiles);
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

  /** The environment of the daemon of {@code uuid}, for {@code -d} and for its commands. */
  public Map<String, String> environment(String uuid) {
    return commands.environment(uuid);
  }
}
