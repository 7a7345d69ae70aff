package io.migd.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * Loop timing: reconcile every {@code resync} when nothing triggers it, and after a run that did
 * not reach the target retry after {@code firstRetry}, doubling up to {@code maxBackoff}.
 */
public record ReconcileSettings(Duration resync, Duration firstRetry, Duration maxBackoff) {
  /** Checks the durations are positive and ordered. */
  public ReconcileSettings {
    Objects.requireNonNull(resync);
    Objects.requireNonNull(firstRetry);
    Objects.requireNonNull(maxBackoff);
    if (resync.isNegative() || resync.isZero() || firstRetry.isNegative() || firstRetry.isZero()) {
      throw new IllegalArgumentException("resync and first retry must be positive");
    }
    if (maxBackoff.compareTo(firstRetry) < 0) {
      throw new IllegalArgumentException("max backoff " + maxBackoff + " is below " + firstRetry);
    }
  }

  /**
   * The wait before the next run: {@code resync} after success, otherwise the backoff for the
   * {@code failures}-th consecutive run that did not reach the target (1 = first).
   */
  public Duration delayAfter(Outcome outcome, int failures) {
    if (outcome.succeeded() || failures <= 0) {
      return resync;
    }
    Duration delay = firstRetry;
    for (int i = 1; i < failures && delay.compareTo(maxBackoff) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    Duration capped = delay.compareTo(maxBackoff) > 0 ? maxBackoff : delay;
    return capped.compareTo(resync) > 0 ? resync : capped;
  }
}
