package io.migd.app;

import io.migd.layout.GpuIndex;
import io.migd.reconcile.Outcome;
import java.util.concurrent.atomic.AtomicReference;

/** The last outcome the DRA node was told of: whether a GPU is dynamic now. */
final class LatestOutcome {
  private final AtomicReference<Outcome> last = new AtomicReference<>();

  void set(Outcome outcome) {
    last.set(outcome);
  }

  /** Whether the last outcome had {@code gpu} dynamic; false before the first. */
  boolean dynamic(GpuIndex gpu) {
    Outcome known = last.get();
    return known != null && known.dynamic(gpu);
  }
}
