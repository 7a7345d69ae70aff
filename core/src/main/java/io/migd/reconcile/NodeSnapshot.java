package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpu;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReleasedException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node as last observed, read by the surfaces that answer at any time (the metrics scrape,
 * {@code GET /api/v1/gpus} and {@code /configs}) instead of observing it again: replaced by the
 * observation of every reconcile's outcome, and one GPU at a time by {@link #observeAgain} (after
 * an XID on it; with DRA, after a prepare or unprepare). Only what changes between reconciles is
 * read from NVML at each read ({@link #live}, {@link #withLiveProcesses}). Every NVML read here
 * waits for a GPU reset at most the reset wait ({@code migd.nvml.reset-wait}), then throws {@link
 * ResetInProgressException} naming the reset, so no reader blocks behind one. Thread-safe: the
 * snapshot is one immutable value swapped atomically; no lock is held across NVML.
 *
 * <p>A newer read of a GPU is never replaced by an older one. A reconcile observes its GPUs when it
 * starts, and a prepare or unprepare may change one and observe it again before that reconcile's
 * outcome arrives: every GPU observed again since the previous outcome is read once more when the
 * outcome arrives, and each read carries a ticket taken before it began, so a read that finishes
 * late never takes back a later one.
 */
public final class NodeSnapshot implements OutcomeListener {
  private static final Logger log = LoggerFactory.getLogger(NodeSnapshot.class);

  private final NodeObserver observer;
  private final Nvml nvml;
  private final ResetsInProgress resets;
  private final Duration resetWait;

  /** Null until the node was first observed, and after NVML could not even count the GPUs. */
  private final AtomicReference<Known> latest = new AtomicReference<>();

  /** Taken before each read, so reads are ordered by when they began. */
  private final AtomicLong tickets = new AtomicLong();

  /** GPUs observed again since the last outcome arrived: that outcome may predate their change. */
  private final Set<GpuIndex> againSinceOutcome = ConcurrentHashMap.newKeySet();

  /**
   * The node as known, with the ticket of the read each GPU shows: {@code floor} for what the
   * outcome observed, a GPU of {@code tickets} for a read since.
   */
  private record Known(ObservedNode node, long floor, Map<GpuIndex, Long> tickets) {
    Known {
      tickets = Map.copyOf(tickets);
    }

    long ticket(GpuIndex gpu) {
      return tickets.getOrDefault(gpu, floor);
    }

    /** {@code change} applied, unless what is known of {@code gpu} was read later. */
    Known with(GpuIndex gpu, long ticket, UnaryOperator<ObservedNode> change) {
      if (ticket <= ticket(gpu)) {
        return this;
      }
      var newer = new HashMap<>(tickets);
      newer.put(gpu, ticket);
      return new Known(change.apply(node), floor, newer);
    }
  }

  /**
   * A snapshot filled by {@code observer} (the reconciler's, {@link Reconciler#observer()}) over
   * {@code nvml}, naming the resets of {@code resets} to readers that waited {@code resetWait}.
   */
  public NodeSnapshot(
      NodeObserver observer, Nvml nvml, ResetsInProgress resets, Duration resetWait) {
    this.observer = observer;
    this.nvml = nvml;
    this.resets = resets;
    this.resetWait = resetWait;
  }

  /**
   * The node as last observed; before the first reconcile ends (or after one could not count the
   * GPUs) it is observed now, GPU by GPU, keeping each error.
   *
   * @throws ResetInProgressException when it must be observed now and a reset holds NVML
   * @throws NvmlException when NVML cannot even count the GPUs
   */
  public ObservedNode latest() {
    Known known = latest.get();
    if (known != null) {
      return known.node();
    }
    long ticket = tickets.incrementAndGet();
    ObservedNode now = reading(() -> observer.observeEach(NodeObserver.ONE_BY_ONE));
    // a reconcile that ended meanwhile observed later: it wins
    return latest.compareAndExchange(null, new Known(now, ticket, Map.of())) instanceof Known newer
        ? newer.node()
        : now;
  }

  /** Takes the node as the reconcile left it; one that could not count the GPUs forgets it. */
  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    if (!outcome.error().isEmpty()) {
      latest.set(null);
      return;
    }
    // set before the GPUs observed again are collected: a read applied to what was known before is
    // of a GPU collected below, and one begun after the floor is kept if it is the newest
    latest.set(new Known(outcome.observed(), tickets.incrementAndGet(), Map.of()));
    Set<GpuIndex> again = new HashSet<>(againSinceOutcome);
    againSinceOutcome.removeAll(again);
    again.retainAll(outcome.observed().indices());
    for (GpuIndex gpu : again) {
      log.debug("gpu={} read again: it was observed again after the reconcile observed it", gpu);
      read(gpu);
    }
  }

  /**
   * Observes one GPU again, keeping the error when NVML fails on it. A reset in progress leaves the
   * snapshot as it is: the reconcile that runs the reset replaces it when it ends.
   */
  public void observeAgain(GpuIndex gpu) {
    againSinceOutcome.add(gpu);
    read(gpu);
  }

  private void read(GpuIndex gpu) {
    long ticket = tickets.incrementAndGet();
    try {
      ObservedGpu seen = reading(() -> observer.observe(gpu));
      apply(gpu, ticket, node -> node.with(seen));
    } catch (NvmlException e) {
      apply(gpu, ticket, node -> node.with(gpu, e));
    } catch (ResetInProgressException e) {
      log.info("gpu={} not observed again: {}", gpu, e.getMessage());
    }
  }

  /**
   * The live values of a GPU as last observed, in one sequence of NVML calls.
   *
   * @throws ResetInProgressException when a reset holds NVML longer than the reset wait
   * @throws NvmlException naming the call that failed
   */
  public LiveGpu live(ObservedGpu gpu) {
    return reading(() -> LiveGpu.read(nvml, gpu));
  }

  /**
   * {@code node} with the compute processes each GPU runs now, in one sequence of NVML calls; a GPU
   * NVML fails on moves to the unobserved with the error.
   *
   * @throws ResetInProgressException when a reset holds NVML longer than the reset wait
   */
  public ObservedNode withLiveProcesses(ObservedNode node) {
    return reading(
        () -> {
          ObservedNode now = node;
          for (ObservedGpu gpu : node.gpus()) {
            try {
              now = now.with(LiveGpu.processes(nvml, gpu));
            } catch (NvmlException e) {
              now = now.with(gpu.index(), e);
            }
          }
          return now;
        });
  }

  private void apply(GpuIndex gpu, long ticket, UnaryOperator<ObservedNode> change) {
    latest.updateAndGet(known -> known == null ? null : known.with(gpu, ticket, change));
  }

  /** The GPU resets under way now, in GPU order. */
  public List<ResetsInProgress.Reset> resetsInProgress() {
    return resets.now();
  }

  private <T> T reading(Supplier<T> reads) {
    try {
      return nvml.inSequence(resetWait, reads);
    } catch (NvmlReleasedException e) {
      throw new ResetInProgressException(resets.now(), e.waited());
    }
  }
}
