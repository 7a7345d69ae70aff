package io.migd.pool;

import io.migd.handoff.LatestWins;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.ownership.ClaimedDevices;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DRA surface's one source of the pool: built from the last reconcile's outcome (which GPU is
 * static and which dynamic), the node snapshot (what NVML shows now: after a prepare or an
 * unprepare the GPU is observed again before the pool is rebuilt), the prepared claims, and the
 * health marks; handed to {@code sink} (the ResourceSlice publisher, the metrics, the health
 * stream) after every outcome, prepare, unprepare, XID and recovery. Prepare reads {@link
 * #current()}: the pool as last built, so a claim is checked against what was published. Nothing is
 * built before {@link #publishing} says what the API server takes (in DRA mode migd starts before
 * the API server has answered its probe: issue 18).
 *
 * <p>Every build takes a number under the lock it is built in, and goes to the sink through {@link
 * LatestWins}: one at a time, in increasing number, an older one never after a newer (a claim
 * thread's pool built before a plan withdrew a device never lands after the pool without it: issue
 * 29); while a kubelet call runs ({@link #heldWhile}) only the newest goes on, when it ends. A
 * reconcile that could not list the GPUs keeps the last pool. A GPU NVML no longer observes keeps
 * its last devices, {@code gpu.nvidia.com/gpu-lost} tainted when NVML says it is lost, so no slice
 * after it is renamed.
 *
 * <p>Facts are read once per GPU (by UUID, again when its index or minor changed: a reset may
 * renumber GPUs) on the reconcile loop's thread; a GPU whose facts cannot be read is left out of
 * the pool until they can, logged. A rebuild does no I/O of its own and holds its lock only while
 * it builds; the sink must not block (the publisher hands the content to its own thread).
 */
public final class PoolSurface implements OutcomeListener {
  private static final Logger log = LoggerFactory.getLogger(PoolSurface.class);

  /**
   * Where the pool goes.
   *
   * @param driver the DRA driver's name
   * @param node the node's name, the pool's
   */
  public record Settings(String driver, String node) {
    /** Checks every part is there. */
    public Settings {
      Objects.requireNonNull(driver);
      Objects.requireNonNull(node);
    }
  }

  /**
   * What the API server takes of the pool, known once it has answered migd's probe: nothing is
   * built or handed on before.
   *
   * @param dynamicDevices whether the API server and the scheduler take dynamic devices; when not,
   *     every GPU is published as static
   * @param taintsDropped whether the API server drops device taints (unhealthy devices are left out
   *     instead)
   * @param shares whether shareable twins may be published (DESIGN section 14, Fractions: {@code
   *     migd.dra.shares}, the versions, the probe twin read back, and no overlap seen since start)
   */
  public record Publishing(boolean dynamicDevices, boolean taintsDropped, boolean shares) {
    /** Publishing without shareable twins. */
    public Publishing(boolean dynamicDevices, boolean taintsDropped) {
      this(dynamicDevices, taintsDropped, false);
    }
  }

  /**
   * A pool as built, numbered in the order of the builds: a higher number was built later, from
   * what was known later.
   */
  public record Publication(long number, BuiltPool pool) {
    /** Checks the pool is there. */
    public Publication {
      Objects.requireNonNull(pool);
    }
  }

  private final Settings settings;
  private final Function<ObservedGpu, GpuFacts> factsReader;
  private final Supplier<ObservedNode> observed;
  private final ClaimedDevices claimed;
  private final HealthMarks health;
  private final LatestWins<Publication> handoff;
  private final Map<String, GpuFacts> facts = new ConcurrentHashMap<>();
  private final Object building = new Object();
  private volatile Outcome last;
  private volatile Publishing publishing;
  private volatile boolean sharesWithdrawn;
  private volatile Publication current;
  // static devices a plan is about to remove: left out until the next outcome
  private final Set<String> withdrawn = ConcurrentHashMap.newKeySet();

  private final Object holding = new Object();
  // guarded by holding: kubelet calls under way, and the newest pool built while one was
  private int holds;
  private Publication heldBack;

  // guarded by building
  private long builds;
  private final Map<GpuIndex, PoolGpu> lastSeen = new HashMap<>();

  /**
   * A surface over the reader of facts, the node snapshot's latest observation, the prepared claims
   * and the health marks, handing each pool to {@code sink} newest first.
   */
  public PoolSurface(
      Settings settings,
      Function<ObservedGpu, GpuFacts> factsReader,
      Supplier<ObservedNode> observed,
      ClaimedDevices claimed,
      HealthMarks health,
      Consumer<Publication> sink) {
    this.settings = Objects.requireNonNull(settings);
    this.factsReader = Objects.requireNonNull(factsReader);
    this.observed = Objects.requireNonNull(observed);
    this.claimed = Objects.requireNonNull(claimed);
    this.health = Objects.requireNonNull(health);
    this.handoff = new LatestWins<>(Objects.requireNonNull(sink));
    this.current =
        new Publication(
            0,
            new BuiltPool(
                PoolContent.empty(settings.driver(), settings.node()), new TreeMap<>(), List.of()));
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    if (!outcome.error().isEmpty()) {
      log.info("the DRA pool stays as last built: the reconcile failed ({})", outcome.error());
      return;
    }
    for (ObservedGpu gpu : outcome.observed().gpus()) {
      GpuFacts known = facts.get(gpu.uuid());
      if (known == null || !known.gpu().equals(gpu.index()) || known.minor() != gpu.minor()) {
        try {
          facts.put(gpu.uuid(), factsReader.apply(gpu));
        } catch (RuntimeException e) {
          facts.remove(gpu.uuid());
          log.warn(
              "gpu={} uuid={} left out of the DRA pool: its facts cannot be read ({})",
              gpu.index(),
              gpu.uuid(),
              e.getMessage());
        }
      }
    }
    last = outcome;
    // the plan that was to remove them has run (or was blocked): publish what is there now
    withdrawn.clear();
    rebuild();
  }

  /**
   * Leaves these static devices out of the pool until the next outcome, and republishes: a plan is
   * about to remove them, so no claim may be allocated them from now on (DESIGN section 12, "Who
   * owns what").
   *
   * @return the number of the first pool built without them; empty when no pool can be built yet
   *     (before the first outcome or before {@link #publishing}): nothing is withdrawn then
   */
  public OptionalLong withdraw(Collection<String> deviceNames) {
    if (withdrawn.addAll(deviceNames)) {
      log.info("withdrawing devices={} from the pool: a plan removes them", deviceNames);
    }
    // never held back: the plan waits for this publication
    return rebuild(false);
  }

  /**
   * Runs one kubelet call ({@code work}: a prepare or unprepare of its claims) with the pool's
   * hand-on held: pools built meanwhile are {@link #current()} at once (a prepare checks against
   * them), but only the newest goes on, once no call is under way, so the slices go straight from
   * the state before the call to the state after it (issue 29: eight claims unprepared in one call
   * made the slices change for 2.4 s, and an allocation in between took a placement the final state
   * would not have offered first). A withdrawal is never held back.
   */
  public <T> T heldWhile(Supplier<T> work) {
    synchronized (holding) {
      holds++;
    }
    try {
      return work.get();
    } finally {
      Publication release;
      synchronized (holding) {
        holds--;
        release = holds == 0 ? heldBack : null;
        if (release != null) {
          heldBack = null;
        }
      }
      if (release != null) {
        handoff.offer(release.number(), release);
      }
    }
  }

  /**
   * From now on the pool is built for what the API server takes, and handed on: at once when a
   * reconcile has ended, else after the first one.
   */
  public void publishing(Publishing taken) {
    Objects.requireNonNull(taken);
    publishing =
        sharesWithdrawn
            ? new Publishing(taken.dynamicDevices(), taken.taintsDropped(), false)
            : taken;
    rebuild();
  }

  /**
   * Withdraws the node's shareable twins until migd restarts (a prepare found the scheduler
   * allocating over a shared device, DESIGN section 14) and rebuilds the pool without them.
   */
  public void withdrawShares() {
    sharesWithdrawn = true;
    Publishing taken = publishing;
    if (taken != null && taken.shares()) {
      publishing(taken);
    }
  }

  /**
   * Builds the pool again from what is known now and hands it on; nothing before an outcome, and
   * nothing before {@link #publishing} (the pool stays empty: a prepare finds no device in it).
   *
   * @return the number of the pool built; empty when none was
   */
  public OptionalLong rebuild() {
    return rebuild(true);
  }

  /** As {@link #rebuild()}; {@code mayHold}: held back while a kubelet call is under way. */
  private OptionalLong rebuild(boolean mayHold) {
    Outcome outcome = last;
    Publishing taken = publishing;
    if (outcome == null || taken == null) {
      return OptionalLong.empty();
    }
    Publication built;
    synchronized (building) {
      ObservedNode node;
      try {
        node = observed.get();
      } catch (RuntimeException e) {
        log.warn(
            "the DRA pool stays as last built: the node cannot be observed ({})", e.toString());
        return OptionalLong.empty();
      }
      List<PoolGpu> gpus = gpus(node, outcome, taken);
      gpus.forEach(
          gpu ->
              health.instancesObserved(
                  gpu.facts().gpu(),
                  gpu.observed().gpuInstances().stream()
                      .map(LiveGpuInstance::id)
                      .collect(Collectors.toSet())));
      BuiltPool pool =
          without(
              PoolBuilder.build(
                  new PoolBuilder.Input(
                      settings.driver(),
                      settings.node(),
                      gpus,
                      claimed,
                      health.marks(lost(node)),
                      taken.taintsDropped())),
              Set.copyOf(withdrawn));
      built = new Publication(++builds, pool);
      current = built;
    }
    if (mayHold) {
      synchronized (holding) {
        if (holds > 0) {
          if (heldBack == null || heldBack.number() < built.number()) {
            heldBack = built;
          }
          return OptionalLong.of(built.number());
        }
      }
    }
    handoff.offer(built.number(), built);
    return OptionalLong.of(built.number());
  }

  /**
   * The GPUs to build from: each one observed whose facts are known, and each one NVML no longer
   * observes as it was last built (its devices stay, their names and the slices after them too).
   */
  private List<PoolGpu> gpus(ObservedNode node, Outcome outcome, Publishing taken) {
    var gpus = new ArrayList<PoolGpu>();
    for (ObservedGpu gpu : node.gpus()) {
      GpuFacts known = facts.get(gpu.uuid());
      if (known != null && known.gpu().equals(gpu.index()) && known.minor() == gpu.minor()) {
        var one =
            new PoolGpu(
                known,
                gpu,
                taken.dynamicDevices() && outcome.dynamic(gpu.index()),
                taken.shares() && outcome.shares(gpu.index()));
        gpus.add(one);
        lastSeen.put(gpu.index(), one);
      }
    }
    lastSeen.keySet().retainAll(node.indices());
    for (GpuIndex gone : node.unobserved().keySet()) {
      PoolGpu before = lastSeen.get(gone);
      if (before != null
          && gpus.stream().noneMatch(g -> g.facts().minor() == before.facts().minor())) {
        gpus.add(before);
      }
    }
    return gpus;
  }

  /** The pool as last built; empty before the first reconcile and before {@link #publishing}. */
  public PoolContent current() {
    return current.pool().content();
  }

  /** The pool as last built, with its reasons and free placements. */
  public BuiltPool built() {
    return current.pool();
  }

  /** Whether a reconcile has ended with this GPU observed: a prepare on it may go ahead. */
  public boolean reconciled(GpuIndex gpu) {
    Outcome outcome = last;
    return outcome != null && outcome.observed(gpu).isPresent();
  }

  private static BuiltPool without(BuiltPool built, Set<String> names) {
    if (names.isEmpty()) {
      return built;
    }
    var slices =
        built.content().slices().stream()
            .map(
                slice ->
                    slice.content() instanceof PoolSlice.Devices(var gpu, var devices)
                        ? new PoolSlice(
                            slice.name(),
                            new PoolSlice.Devices(
                                gpu,
                                devices.stream().filter(d -> !names.contains(d.name())).toList()))
                        : slice)
            .toList();
    var content = new PoolContent(built.content().driver(), built.content().pool(), slices);
    return new BuiltPool(content, built.reasons(), built.freePlacements());
  }

  private static Set<GpuIndex> lost(ObservedNode node) {
    var lost = new TreeSet<GpuIndex>();
    node.unobserved()
        .forEach(
            (gpu, e) -> {
              if (e instanceof NvmlException nvml && nvml.code() == NvmlReturn.GPU_IS_LOST) {
                lost.add(gpu);
              }
            });
    return lost;
  }
}
