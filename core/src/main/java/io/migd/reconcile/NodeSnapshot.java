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
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
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
 */
public final class NodeSnapshot implements OutcomeListener {
  private static final Logger log = LoggerFactory.getLogger(NodeSnapshot.class);

  private final NodeObserver observer;
  private final Nvml nvml;
  private final ResetsInProgress resets;
  private final Duration resetWait;

  /** Null until the node was first observed, and after NVML could not even count the GPUs. */
  private final AtomicReference<ObservedNode> latest = new AtomicReference<>();

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
    ObservedNode known = latest.get();
    if (known != null) {
      return known;
    }
    ObservedNode now = reading(() -> observer.observeEach(NodeObserver.ONE_BY_ONE));
    // a reconcile that ended meanwhile observed later: it wins
    return latest.compareAndExchange(null, now) instanceof ObservedNode newer ? newer : now;
  }

  /** Takes the node as the reconcile left it; one that could not count the GPUs forgets it. */
  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    latest.set(outcome.error().isEmpty() ? outcome.observed() : null);
  }

  /**
   * Observes one GPU again, keeping the error when NVML fails on it. A reset in progress leaves the
   * snapshot as it is: the reconcile that runs the reset replaces it when it ends.
   */
  public void observeAgain(GpuIndex gpu) {
    try {
      ObservedGpu seen = reading(() -> observer.observe(gpu));
      latest.updateAndGet(node -> node == null ? null : node.with(seen));
    } catch (NvmlException e) {
      latest.updateAndGet(node -> node == null ? null : node.with(gpu, e));
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
