package io.migd.reconcile;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import io.migd.plan.PlannerBound;
import io.migd.profiles.GpuModelCatalog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.SequencedSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile: observe the GPUs, resolve the intent per GPU, decide, execute, observe again, and
 * end in one {@link Outcome} with a result for every GPU of the node. Level-based: it never asks
 * why it was called. One GPU's part is {@link GpuReconcile}; pending MIG modes, resets and reboots
 * are {@link ModeChange}. The GPUs are observed, decided, changed and verified in parallel, {@link
 * #withParallelism at most so many at once} (every GPU by default), each on its own thread; a
 * reboot is asked for once, after every GPU's steps have ended.
 */
public final class Reconciler {
  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

  private final Parts parts;
  private final DeviceOwnership ownership;
  private final NodeObserver observer;
  private final ConfigLookup configs;
  private final UsageSource usageSource;
  private final NodeDecider decider;
  private final GpuReconcile gpus;
  private final ModeChange modeChange;
  private final Clock clock;
  private final GpuPool pool;
  private final PlannerBound bound;

  /** What a reconciler is built from, kept so that a copy in another kubelet mode can be built. */
  private record Parts(
      NodeObserver observer,
      ModelSource models,
      ConfigLookup configs,
      UsageSource usageSource,
      Executor executor,
      ProgressListener listener,
      GpuReset reset,
      RebootPolicy reboot,
      OperandPause pause,
      Clock clock) {}

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
        new Parts(
            observer,
            models,
            configs,
            usageSource,
            executor,
            listener,
            reset,
            reboot,
            OperandPause.off(),
            clock),
        DeviceOwnership.DEVICE_PLUGIN,
        new GpuPool(0),
        PlannerBound.DEFAULT);
  }

  private Reconciler(Parts parts, DeviceOwnership ownership, GpuPool pool, PlannerBound bound) {
    this.parts = parts;
    this.ownership = ownership;
    this.observer = parts.observer();
    this.configs = parts.configs();
    this.usageSource =
        ownership.dra()
            ? new ClaimUsage(parts.usageSource(), ownership.claims())
            : parts.usageSource();
    this.modeChange =
        new ModeChange(observer, usageSource, parts.reset(), parts.reboot(), parts.pause());
    this.decider = new NodeDecider(configs, parts.models(), ownership, bound);
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
    this.clock = parts.clock();
    this.pool = pool;
    this.bound = bound;
  }

  private Reconciler(Reconciler other, GpuPool pool) {
    this.parts = other.parts;
    this.ownership = other.ownership;
    this.observer = other.observer;
    this.configs = other.configs;
    this.usageSource = other.usageSource;
    this.modeChange = other.modeChange;
    this.decider = other.decider;
    this.gpus = other.gpus;
    this.clock = other.clock;
    this.pool = pool;
    this.bound = other.bound;
  }

  /**
   * This reconciler deciding in the kubelet mode {@code ownership} gives ({@code
   * migd.kubelet.mode}): in DRA mode a dynamic GPU's instances belong to its prepared claims,
   * devices prepared claims own are in use, the guard is asked before a plan removes a static
   * device, and nothing is shared. Call it once, when the daemon is wired.
   */
  public Reconciler withOwnership(DeviceOwnership ownership) {
    return new Reconciler(parts, ownership, pool, bound);
  }

  /**
   * This reconciler bounding each GPU's placement search by {@code bound} ({@code
   * migd.planner.max-steps}, DESIGN section 13). Call it once, when the daemon is wired.
   */
  public Reconciler withPlannerBound(PlannerBound bound) {
    return new Reconciler(parts, ownership, pool, Objects.requireNonNull(bound, "bound"));
  }

  /**
   * This reconciler pausing the GPU Operator's operands while a MIG mode change waits on a client
   * NVML does not list ({@code migd.pause.*}, DESIGN section 13). Call it once, when the daemon is
   * wired.
   */
  public Reconciler withOperandPause(OperandPause pause) {
    var p = parts;
    return new Reconciler(
        new Parts(
            p.observer(),
            p.models(),
            p.configs(),
            p.usageSource(),
            p.executor(),
            p.listener(),
            p.reset(),
            p.reboot(),
            Objects.requireNonNull(pause, "pause"),
            p.clock()),
        ownership,
        pool,
        bound);
  }

  /** The kubelet mode this reconciler decides in. */
  public KubeletMode mode() {
    return ownership.mode();
  }

  /**
   * This reconciler changing at most {@code gpusAtOnce} GPUs at once ({@code
   * migd.reconcile.parallelism}): 0 is every GPU at once (the default), 1 one after another in
   * index order.
   *
   * @throws IllegalArgumentException when {@code gpusAtOnce} is negative
   */
  public Reconciler withParallelism(int gpusAtOnce) {
    return new Reconciler(this, new GpuPool(gpusAtOnce));
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
    Usage usage = usageSource.usage(observed);
    var plans = new ArrayList<NodePlan>();
    for (Desired desired : intents) {
      var resolutions = resolve(desired, observed);
      var decisions =
          pool.each(
              andResolved(observed, resolutions),
              gpu ->
                  unplanned(desired, gpu, observed, resolutionOf(resolutions, gpu))
                      .orElseGet(
                          () -> decide(gpu, resolutionOf(resolutions, gpu), observed, usage)));
      var targets = new LinkedHashMap<GpuIndex, GpuTarget>();
      resolutions.forEach(
          (gpu, resolution) -> {
            if (resolution instanceof Resolution.Target(var target, _)) {
              targets.put(gpu, target);
            }
          });
      plans.add(new NodePlan(targets, decisions));
    }
    return plans;
  }

  private Decision decide(GpuIndex gpu, Resolution resolution, ObservedNode observed, Usage usage) {
    try {
      return gpus.decide(resolution, gpu, observed, usage);
    } catch (NvmlException e) {
      return Decision.Failed.of("deciding for GPU " + gpu, e);
    } catch (RuntimeException e) {
      log.error("gpu={} deciding failed, a bug in migd; the other GPUs go on", gpu, e);
      return Decision.Failed.unexpected("deciding for GPU " + gpu, e);
    }
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
          desired.generation(), "listing the GPUs failed: " + e.getMessage(), clock.instant());
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
    SequencedMap<GpuIndex, Outcome.Gpu> ended = rebootIfNeeded(desired.generation(), reconciled);
    ended.forEach(
        (gpu, entry) ->
            log.info(
                "gpu={} state={} generation={} reason=\"{}\"",
                gpu,
                entry.result().state().wireName(),
                desired.generation(),
                entry.reason()));
    return new Outcome(desired.generation(), ended, after(observed, ended), "", clock.instant());
  }

  /** The GPUs' entries with the results {@link ModeChange#ended} gives. */
  private SequencedMap<GpuIndex, Outcome.Gpu> rebootIfNeeded(
      long generation, SequencedMap<GpuIndex, Outcome.Gpu> reconciled) {
    var results = new LinkedHashMap<GpuIndex, GpuResult>();
    reconciled.forEach((gpu, entry) -> results.put(gpu, entry.result()));
    var ended = new LinkedHashMap<GpuIndex, Outcome.Gpu>();
    modeChange
        .ended(generation, results)
        .forEach(
            (gpu, result) -> {
              Outcome.Gpu entry = reconciled.get(gpu);
              ended.put(
                  gpu,
                  new Outcome.Gpu(
                      entry.resolution(), entry.decision(), result, entry.turningStatic()));
            });
    return ended;
  }

  private static Resolution resolutionOf(
      SequencedMap<GpuIndex, Resolution> resolutions, GpuIndex gpu) {
    return resolutions.getOrDefault(gpu, new Resolution.Unselected());
  }

  /**
   * The node as it is after the reconcile: GPUs whose result says nothing was done keep their first
   * observation; the others are observed again (one NVML fails on keeps the error, as one that
   * could not be observed at first does).
   */
  private ObservedNode after(ObservedNode before, SequencedMap<GpuIndex, Outcome.Gpu> results) {
    record Again(ObservedGpu gpu, NvmlException error) {}
    var again =
        pool.each(
            before.gpus().stream().map(ObservedGpu::index).toList(),
            gpu -> {
              boolean untouched =
                  switch (results.get(gpu).result()) {
                    case GpuResult.InSync _, GpuResult.Unmanaged _, GpuResult.Infeasible _ -> true;
                    case GpuResult.Applied _,
                        GpuResult.Applying _,
                        GpuResult.Blocked _,
                        GpuResult.AwaitingModeChange _,
                        GpuResult.Rebooting _,
                        GpuResult.Failed _ ->
                        false;
                  };
              if (untouched) {
                return null;
              }
              try {
                return new Again(observer.observe(gpu), null);
              } catch (NvmlException e) {
                log.warn("gpu={} cannot be observed after its reconcile: {}", gpu, e.getMessage());
                return new Again(null, e);
              } catch (RuntimeException e) {
                // not NVML's: the first observation stands, and the next reconcile looks again
                log.error("gpu={} observing after its reconcile failed, a bug in migd", gpu, e);
                return null;
              }
            });
    ObservedNode after = before;
    for (var entry : again.entrySet()) {
      Again one = entry.getValue();
      after = one.error() == null ? after.with(one.gpu()) : after.with(entry.getKey(), one.error());
    }
    return after;
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

  /** The node's GPUs, then any GPU the intent names that the node lacks, in that order. */
  private static SequencedSet<GpuIndex> andResolved(
      ObservedNode observed, SequencedMap<GpuIndex, Resolution> resolutions) {
    var all = new LinkedHashSet<>(observed.indices());
    all.addAll(resolutions.keySet());
    return all;
  }

  /** The decision for a GPU that is not handed to the planner: unobserved, or not selected. */
  private static Optional<Decision> unplanned(
      Desired desired, GpuIndex gpu, ObservedNode observed, Resolution resolution) {
    NvmlException unseen = observed.unobserved().get(gpu);
    if (unseen != null) {
      return Optional.of(
          mightSelect(desired, gpu)
              ? Decision.Failed.of("observing GPU " + gpu, unseen)
              : new Decision.Unmanaged());
    }
    return resolution instanceof Resolution.Unselected
        ? Optional.of(new Decision.Unmanaged())
        : Optional.empty();
  }

  /**
   * Whether the intent may select a GPU that could not be observed: a named config selects by
   * model, which is unknown then, so it counts as selected.
   */
  private static boolean mightSelect(Desired desired, GpuIndex gpu) {
    return switch (desired.intent()) {
      case Desired.Intent.Nothing() -> false;
      case Desired.Intent.NamedConfig(var name) -> true;
      case Desired.Intent.Layout(var targets) ->
          targets.stream().anyMatch(t -> t.gpu().equals(gpu));
    };
  }
}
