package io.migd.execute;

import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import java.time.Duration;
import java.util.Objects;

/**
 * The one backoff of migd: {@code first} after the first failure, doubling up to {@code max}. The
 * reconcile loop waits {@link #delay(int)} between runs that did not reach the target; NVML retries
 * (a transient step error, initialising NVML again after a reset) use {@link #retryPolicy(int)}.
 */
public record Backoff(Duration first, Duration max) {
  /** Checks that the delays are positive and ordered. */
  public Backoff {
    Objects.requireNonNull(first);
    Objects.requireNonNull(max);
    if (first.isNegative() || first.isZero()) {
      throw new IllegalArgumentException("the first backoff delay must be positive: " + first);
    }
    if (max.compareTo(first) < 0) {
      throw new IllegalArgumentException("max backoff " + max + " is below " + first);
    }
  }

  /** The wait after the {@code failures}-th consecutive failure (1 = first); never above max. */
  public Duration delay(int failures) {
    Duration delay = first;
    for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }

  /**
   * A Failsafe retry policy waiting {@link #delay(int)} between at most {@code retries} retries.
   */
  public <R> RetryPolicyBuilder<R> retryPolicy(int retries) {
    return RetryPolicy.<R>builder()
        .withDelayFn(context -> delay(Math.max(1, context.getAttemptCount())))
        .withMaxRetries(retries);
  }
}
