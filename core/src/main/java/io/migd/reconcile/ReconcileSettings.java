package io.migd.reconcile;

import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.Objects;

/**
 * Loop timing: reconcile every {@code resync} when nothing triggers it, and after a run that did
 * not reach the target retry after {@code firstRetry}, doubling up to {@code maxBackoff}. The loop
 * counts as not live when no run has completed for {@code livenessTimeout}.
 */
public record ReconcileSettings(
    Duration resync, Duration firstRetry, Duration maxBackoff, Duration livenessTimeout) {
  /** Checks the durations are positive and ordered. */
  public ReconcileSettings {
    Objects.requireNonNull(resync);
    Objects.requireNonNull(firstRetry);
    Objects.requireNonNull(maxBackoff);
    Objects.requireNonNull(livenessTimeout);
    if (resync.isNegative() || resync.isZero() || firstRetry.isNegative() || firstRetry.isZero()) {
      throw new IllegalArgumentException("resync and first retry must be positive");
    }
    if (maxBackoff.compareTo(firstRetry) < 0) {
      throw new IllegalArgumentException("max backoff " + maxBackoff + " is below " + firstRetry);
    }
    if (livenessTimeout.isNegative() || livenessTimeout.isZero()) {
      throw new IllegalArgumentException("the liveness timeout must be positive");
    }
  }

  /** Settings with the default liveness timeout, {@link #defaultLivenessTimeout}. */
  public ReconcileSettings(Duration resync, Duration firstRetry, Duration maxBackoff) {
    this(resync, firstRetry, maxBackoff, defaultLivenessTimeout(resync, maxBackoff));
  }

  /**
   * 2 x resync + max backoff: the longest an ordinary loop waits between two completed runs is one
   * resync or one backoff, so only a run that hangs (or a loop that died) exceeds it.
   */
  public static Duration defaultLivenessTimeout(Duration resync, Duration maxBackoff) {
    return resync.multipliedBy(2).plus(maxBackoff);
  }

  /** The backoff between runs that did not reach the target. */
  public Backoff backoff() {
    return new Backoff(firstRetry, maxBackoff);
  }

  /**
   * The wait before the next run: {@code resync} after success, otherwise the backoff for the
   * {@code failures}-th consecutive run that did not reach the target (1 = first).
   */
  public Duration delayAfter(Outcome outcome, int failures) {
    return delayAfter(outcome.succeeded() ? 0 : failures);
  }

  /**
   * The wait before the next run after {@code failures} consecutive runs that did not reach the
   * target or threw: {@code resync} when there were none.
   */
  public Duration delayAfter(int failures) {
    if (failures <= 0) {
      return resync;
    }
    Duration backoff = backoff().delay(failures);
    return backoff.compareTo(resync) > 0 ? resync : backoff;
  }
}
