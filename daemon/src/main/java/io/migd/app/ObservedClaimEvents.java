package io.migd.app;

import io.migd.claims.ClaimEvents;
import io.migd.layout.GpuIndex;
import io.migd.metrics.DraMetrics;
import io.migd.ownership.ClaimKey;
import java.time.Duration;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the daemon does with the claims' events: a prepare's duration goes to {@code
 * migd_dra_prepare_duration_seconds}; GPUs a checkpoint write touched are observed again, then the
 * pool is rebuilt over that observation and the record just written; a share overlap is counted,
 * withdraws the twins and warns on the claim.
 */
final class ObservedClaimEvents implements ClaimEvents {
  private static final Logger log = LoggerFactory.getLogger(ObservedClaimEvents.class);

  private final DraMetrics metrics;
  private final Consumer<GpuIndex> observeAgain;
  private final Runnable rebuild;
  private final Runnable withdrawShares;
  private final BiConsumer<ClaimKey, String> warn;

  ObservedClaimEvents(
      DraMetrics metrics,
      Consumer<GpuIndex> observeAgain,
      Runnable rebuild,
      Runnable withdrawShares,
      BiConsumer<ClaimKey, String> warn) {
    this.metrics = metrics;
    this.observeAgain = observeAgain;
    this.rebuild = rebuild;
    this.withdrawShares = withdrawShares;
    this.warn = warn;
  }

  /**
   * An allocation over a shared device: counted in {@code migd_dra_share_overlaps_total}, the
   * node's twins withdrawn until restart, and a Warning Event on the claim.
   */
  @Override
  public void shareOverlap(ClaimKey claim, String sentence) {
    metrics.shareOverlap();
    log.warn("{}; the node's shareable twins are withdrawn until migd restarts", sentence);
    withdrawShares.run();
    warn.accept(claim, sentence);
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
