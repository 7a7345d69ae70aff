package io.migd.app;

import io.migd.claims.ClaimEvents;
import io.migd.layout.GpuIndex;
import io.migd.metrics.DraMetrics;
import io.migd.ownership.ClaimKey;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the daemon does with the claims' events: a prepare's duration goes to {@code
 * migd_dra_prepare_duration_seconds}; GPUs a checkpoint write touched are observed again, then the
 * pool is rebuilt over that observation and the record just written.
 */
final class ObservedClaimEvents implements ClaimEvents {
  private final DraMetrics metrics;
  private final Consumer<GpuIndex> observeAgain;
  private final Runnable rebuild;

  ObservedClaimEvents(DraMetrics metrics, Consumer<GpuIndex> observeAgain, Runnable rebuild) {
    this.metrics = metrics;
    this.observeAgain = observeAgain;
    this.rebuild = rebuild;
  }

  @Override
  public void prepared(ClaimKey claim, PrepareKind kind, Duration took) {
    metrics.prepared(DraMetrics.Kind.valueOf(kind.name()), took);
  }

  @Override
  public void touched(Set<GpuIndex> gpus) {
    gpus.forEach(observeAgain);
    rebuild.run();
  }
}
