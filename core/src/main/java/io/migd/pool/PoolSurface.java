package io.migd.pool;

import io.migd.layout.GpuIndex;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
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
 * <p>Facts are read once per GPU (by UUID) on the reconcile loop's thread; a GPU whose facts cannot
 * be read is left out of the pool until they can, logged. A rebuild does no I/O and holds its lock
 * only while it builds; the sink must not block (the publisher hands the content to its own
 * thread).
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
   */
  public record Publishing(boolean dynamicDevices, boolean taintsDropped) {}

  private final Settings settings;
  private final Function<ObservedGpu, GpuFacts> factsReader;
  private final Supplier<ObservedNode> observed;
  private final ClaimedDevices claimed;
  private final HealthMarks health;
  private final Consumer<BuiltPool> sink;
  private final Map<String, GpuFacts> facts = new ConcurrentHashMap<>();
  private final Object building = new Object();
  private volatile Outcome last;
  private volatile Publishing publishing;
  private volatile BuiltPool current;
  // static devices a plan is about to remove: left out until the next outcome
  private final Set<String> withdrawn = ConcurrentHashMap.newKeySet();

  /**
   * A surface over the reader of facts, the node snapshot's latest observation, the prepared claims
   * and the health marks.
   */
  public PoolSurface(
      Settings settings,
      Function<ObservedGpu, GpuFacts> factsReader,
      Supplier<ObservedNode> observed,
      ClaimedDevices claimed,
      HealthMarks health,
      Consumer<BuiltPool> sink) {
    this.settings = Objects.requireNonNull(settings);
    this.factsReader = Objects.requireNonNull(factsReader);
    this.observed = Objects.requireNonNull(observed);
    this.claimed = Objects.requireNonNull(claimed);
    this.health = Objects.requireNonNull(health);
    this.sink = Objects.requireNonNull(sink);
    this.current =
        new BuiltPool(
            PoolContent.empty(settings.driver(), settings.node()), new TreeMap<>(), List.of());
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    for (ObservedGpu gpu : outcome.observed().gpus()) {
      if (!facts.containsKey(gpu.uuid())) {
        try {
          facts.put(gpu.uuid(), factsReader.apply(gpu));
        } catch (RuntimeException e) {
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
   */
  public void withdraw(Collection<String> deviceNames) {
    if (withdrawn.addAll(deviceNames)) {
      log.info("withdrawing devices={} from the pool: a plan removes them", deviceNames);
      rebuild();
    }
  }

  /**
   * From now on the pool is built for what the API server takes, and handed on: at once when a
   * reconcile has ended, else after the first one.
   */
  public void publishing(Publishing taken) {
    publishing = Objects.requireNonNull(taken);
    rebuild();
  }

  /**
   * Builds the pool again from what is known now and hands it on; nothing before an outcome, and
   * nothing before {@link #publishing} (the pool stays empty: a prepare finds no device in it).
   */
  public void rebuild() {
    Outcome outcome = last;
    Publishing taken = publishing;
    if (outcome == null || taken == null) {
      return;
    }
    BuiltPool built;
    synchronized (building) {
      ObservedNode node = observed.get();
      var gpus = new ArrayList<PoolGpu>();
      for (ObservedGpu gpu : node.gpus()) {
        GpuFacts known = facts.get(gpu.uuid());
        if (known != null && known.gpu().equals(gpu.index())) {
          gpus.add(new PoolGpu(known, gpu, taken.dynamicDevices() && outcome.dynamic(gpu.index())));
        }
      }
      built =
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
      current = built;
    }
    sink.accept(built);
  }

  /** The pool as last built; empty before the first reconcile and before {@link #publishing}. */
  public PoolContent current() {
    return current.content();
  }

  /** The pool as last built, with its reasons and free placements. */
  public BuiltPool built() {
    return current;
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
