package io.migd.reconcile;

import static io.migd.reconcile.GpuSelection.andResolved;
import static io.migd.reconcile.GpuSelection.resolutionOf;
import static io.migd.reconcile.GpuSelection.unplanned;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import io.migd.plan.PlannerBound;
import io.migd.profiles.GpuModelCatalog;
import java.time.Clock;
import java.util.List;
import java.util.SequencedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile: observe the GPUs, resolve the intent per GPU, decide, execute, observe again, and
 * end in one {@link Outcome} with a result for every GPU of the node. Level-based: it never asks
 * why it was called. One GPU's part is {@link GpuReconcile}; pending MIG modes, resets and reboots
 * are {@link ModeChange}; which GPUs reach the planner is {@link GpuSelection}; a dry run is {@link
 * DryRun}. The GPUs are observed, decided, changed and verified in parallel, {@link
 * #withParallelism at most so many at once} (every GPU by default), each on its own thread; a
 * reboot is asked for once, after every GPU's steps have ended.
 */
public final class Reconciler {
  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

  private final ReconcilerParts parts;
  private final ReconcilerOptions options;
  private final NodeObserver observer;
  private final UsageSource usageSource;
  private final NodeDecider decider;
  private final GpuReconcile gpus;
  private final ModeChange modeChange;
  private final GpuPool pool;
  private final DryRun dryRun;

  /**
   * A reconciler over its collaborators; {@code configs} looks up a named config. The GPUs run in
   * parallel and each calls {@code listener} from its own thread: give it (and the executor) a
   * listener that takes events from several threads at once, or one that takes one event at a time,
   * {@link ProgressListener#oneAtATime}, as {@link #over} does. It decides in device-plugin mode
   * ({@link #withOwnership} for DRA mode).
   */
  public Reconciler(
      NodeObserver observer,
      ModelSource models,
      ConfigLookup configs,
      UsageSource usageSource,
      Executor executor,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot,
      Clock clock) {
    this(
        new ReconcilerParts(
            observer, models, configs, usageSource, executor, listener, reset, reboot, clock),
        ReconcilerOptions.defaults());
  }

  private Reconciler(ReconcilerParts parts, ReconcilerOptions options) {
    this.parts = parts;
    this.options = options;
    DeviceOwnership ownership = options.ownership();
    this.observer = parts.observer();
    this.usageSource =
        ownership.dra()
            ? new ClaimUsage(parts.usageSource(), ownership.claims())
            : parts.usageSource();
    this.modeChange =
        new ModeChange(observer, usageSource, parts.reset(), parts.reboot(), options.pause());
    this.decider = new NodeDecider(parts.configs(), parts.models(), ownership, options.bound());
    this.gpus =
        new GpuReconcile(
            observer,
            decider,
            usageSource,
            parts.executor(),
            parts.listener(),
            modeChange,
            ownership.guard(),
            parts.clock());
    this.pool = options.pool();
    this.dryRun = new DryRun(decider, gpus, usageSource, pool);
  }

  /**
   * This reconciler deciding in the kubelet mode {@code ownership} gives ({@code
   * migd.kubelet.mode}): in DRA mode a dynamic GPU's instances belong to its prepared claims,
   * devices prepared claims own are in use, the guard is asked before a plan removes a static
   * device, and nothing is shared. Call it once, when the daemon is wired.
   */
  public Reconciler withOwnership(DeviceOwnership ownership) {
    return new Reconciler(parts, options.withOwnership(ownership));
  }

  /**
   * This reconciler bounding each GPU's placement search by {@code bound} ({@code
   * migd.planner.max-steps}, DESIGN section 13). Call it once, when the daemon is wired.
   */
  public Reconciler withPlannerBound(PlannerBound bound) {
    return new Reconciler(parts, options.withBound(bound));
  }

  /**
   * This reconciler pausing the GPU Operator's operands while a MIG mode change waits on a client
   * NVML does not list ({@code migd.pause.*}, DESIGN section 13). Call it once, when the daemon is
   * wired.
   */
  public Reconciler withOperandPause(OperandPause pause) {
    return new Reconciler(parts, options.withPause(pause));
  }

  /** The kubelet mode this reconciler decides in. */
  public KubeletMode mode() {
    return options.ownership().mode();
  }

  /**
   * This reconciler changing at most {@code gpusAtOnce} GPUs at once ({@code
   * migd.reconcile.parallelism}): 0 is every GPU at once (the default), 1 one after another in
   * index order.
   *
   * @throws IllegalArgumentException when {@code gpusAtOnce} is negative
   */
  public Reconciler withParallelism(int gpusAtOnce) {
    return new Reconciler(parts, options.withPool(new GpuPool(gpusAtOnce)));
  }

  /**
   * The reconciler the daemon runs, over one NVML session: NVML observation and catalogue, process
   * usage named by NVML, and the executor, all reporting progress to {@code listener}.
   */
  public static Reconciler over(
      Nvml nvml,
      GpuModelCatalog catalog,
      ConfigLookup configs,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot) {
    return over(nvml, catalog, configs, processUsage(nvml), listener, reset, reboot);
  }

  /**
   * As {@link #over(Nvml, GpuModelCatalog, ConfigLookup, ProgressListener, GpuReset,
   * RebootPolicy)}, deciding from {@code usage}.
   */
  public static Reconciler over(
      Nvml nvml,
      GpuModelCatalog catalog,
      ConfigLookup configs,
      UsageSource usage,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot) {
    return over(
        new NodeObserver(nvml, catalog), nvml, catalog, configs, usage, listener, reset, reboot);
  }

  /**
   * As {@link #over(Nvml, GpuModelCatalog, ConfigLookup, UsageSource, ProgressListener, GpuReset,
   * RebootPolicy)}, observing through {@code observer}: the node's one observer, which the daemon's
   * {@link NodeSnapshot} shares.
   */
  public static Reconciler over(
      NodeObserver observer,
      Nvml nvml,
      GpuModelCatalog catalog,
      ConfigLookup configs,
      UsageSource usage,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot) {
    return overConcurrent(
        observer,
        nvml,
        catalog,
        configs,
        usage,
        ProgressListener.oneAtATime(listener),
        reset,
        reboot);
  }

  /**
   * As {@link #over(NodeObserver, Nvml, GpuModelCatalog, ConfigLookup, UsageSource,
   * ProgressListener, GpuReset, RebootPolicy)}, but {@code listener} is told as the GPUs' threads
   * call it, several GPUs' events at once (each GPU's in its order): a composite that wraps in
   * {@link ProgressListener#oneAtATime} only the listeners that need it, so one that takes long
   * (the MPS daemons running {@code quit}) holds up no other GPU's plan.
   */
  public static Reconciler overConcurrent(
      NodeObserver observer,
      Nvml nvml,
      GpuModelCatalog catalog,
      ConfigLookup configs,
      UsageSource usage,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot) {
    return new Reconciler(
        observer,
        new ModelSource(nvml, catalog),
        configs,
        usage,
        new Executor(nvml, listener),
        listener,
        reset,
        reboot,
        Clock.systemUTC());
  }

  /**
   * The observer of this reconciler; the daemon builds it once and gives the same one to its {@link
   * NodeSnapshot}, a benchmark reads it here.
   */
  public NodeObserver observer() {
    return observer;
  }

  /** The usage NVML's compute processes show, named by NVML. */
  public static UsageSource processUsage(Nvml nvml) {
    return new ProcessUsage(nvml::processName);
  }

  /**
   * Resolves the intent against what was observed: a target, or why there can be none, for each GPU
   * the intent names; GPUs it does not select are absent. Only the reconcile and its dry runs
   * ({@link #plan}) resolve; surfaces read the resolution from the {@link Outcome}.
   */
  public SequencedMap<GpuIndex, Resolution> resolve(Desired desired, ObservedNode observed) {
    return decider.resolve(desired, observed);
  }

  /**
   * How often the planner ran in this reconciler's decisions (the loop's, dry runs', REST checks'):
   * a count for tests and benchmarks, never a decision input.
   */
  public long plannerRuns() {
    return decider.plannerRuns();
  }

  /**
   * The decision for every GPU of the node, without changing anything: {@link Decision.Unmanaged}
   * for those the intent does not select, {@link Decision.Failed} for one NVML failed on.
   *
   * @throws NvmlException when NVML cannot even list the GPUs
   */
  public SequencedMap<GpuIndex, Decision> plan(Desired desired) {
    return plan(List.of(desired)).getFirst().decisions();
  }

  /**
   * What each intent would make of the node, over one observation of it, without changing anything:
   * the target of every GPU it selects, and the decision for every GPU, as {@link #plan(Desired)}
   * gives it. The planner runs once per GPU and intent.
   *
   * @throws NvmlException when NVML cannot even list the GPUs
   */
  public List<NodePlan> plan(List<Desired> intents) {
    return plan(intents, observer.observeEach(pool));
  }

  /**
   * As {@link #plan(List)}, over {@code observed} instead of a fresh observation: for readers that
   * must not wait behind a GPU reset, which decide over the node snapshot ({@code GET
   * /api/v1/configs}).
   */
  public List<NodePlan> plan(List<Desired> intents, ObservedNode observed) {
    return dryRun.plan(intents, observed);
  }

  /**
   * Observes, decides and executes every GPU (in parallel, see {@link #withParallelism}), then
   * observes again. An NVML error on one GPU ends that GPU {@code failed} and the others go on;
   * only a failure to list the GPUs fails the node.
   */
  public Outcome reconcile(Desired desired) {
    ObservedNode observed;
    try {
      observed = observer.observeEach(pool);
    } catch (NvmlException e) {
      log.warn("cannot list the GPUs generation={} error=\"{}\"", desired.generation(), e);
      return Outcome.failed(
          desired.generation(),
          "listing the GPUs failed: " + e.getMessage(),
          parts.clock().instant());
    }
    SequencedMap<GpuIndex, Resolution> resolutions = resolve(desired, observed);
    Usage usage = usageSource.usage(observed);
    SequencedMap<GpuIndex, Outcome.Gpu> reconciled =
        pool.each(
            andResolved(observed, resolutions),
            gpu -> {
              Resolution resolution = resolutionOf(resolutions, gpu);
              return unplanned(desired, gpu, observed, resolution)
                  .map(decision -> new Outcome.Gpu(resolution, decision, GpuResult.of(decision)))
                  .orElseGet(() -> reconcileGpu(desired, resolution, gpu, observed, usage));
            });
    SequencedMap<GpuIndex, Outcome.Gpu> ended =
        modeChange.endedEntries(desired.generation(), reconciled);
    ended.forEach(
        (gpu, entry) ->
            log.info(
                "gpu={} state={} generation={} reason=\"{}\"",
                gpu,
                entry.result().state().wireName(),
                desired.generation(),
                entry.reason()));
    return new Outcome(
        desired.generation(),
        ended,
        ObserveAgain.after(observer, pool, observed, ended),
        "",
        parts.clock().instant());
  }

  /** One GPU's reconcile; an error while deciding fails this GPU only, before it is touched. */
  private Outcome.Gpu reconcileGpu(
      Desired desired, Resolution resolution, GpuIndex gpu, ObservedNode observed, Usage usage) {
    Decision failed;
    try {
      return gpus.reconcile(desired, resolution, gpu, observed, usage, true);
    } catch (NvmlException e) {
      failed = Decision.Failed.of("reconciling GPU " + gpu, e);
    } catch (RuntimeException e) {
      log.error("gpu={} reconcile failed, a bug in migd; the other GPUs go on", gpu, e);
      failed = Decision.Failed.unexpected("reconciling GPU " + gpu, e);
    }
    return new Outcome.Gpu(resolution, failed, GpuResult.of(failed));
  }
}
