package io.migd.metrics;

import io.migd.dra.ClaimPreparation;
import io.migd.dra.PrepareResult;
import io.migd.dra.UnprepareResult;
import io.migd.ownership.ClaimKey;
import java.util.List;

/** Counts each claim's answer in {@code migd_dra_requests_total}; the work is the delegate's. */
public final class MeteredClaims implements ClaimPreparation {
  private final ClaimPreparation delegate;
  private final DraMetrics metrics;

  public MeteredClaims(ClaimPreparation delegate, DraMetrics metrics) {
    this.delegate = delegate;
    this.metrics = metrics;
  }

  @Override
  public List<PrepareResult> prepare(List<ClaimKey> claims) {
    var results = delegate.prepare(claims);
    results.forEach(
        r -> metrics.answered(DraMetrics.Operation.PREPARE, r instanceof PrepareResult.Prepared));
    return results;
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
    var results = delegate.unprepare(claims);
    results.forEach(
        r ->
            metrics.answered(
                DraMetrics.Operation.UNPREPARE, r instanceof UnprepareResult.Unprepared));
    return results;
  }
}
