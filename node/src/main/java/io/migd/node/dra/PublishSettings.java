package io.migd.node.dra;

import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.Objects;

/**
 * How fast the publisher may talk to the API server.
 *
 * @param qps requests per second on average ({@code migd.dra.qps}, default 20)
 * @param burst requests that may go at once after a quiet time (default 40)
 * @param backoff the wait before a failed publish is tried again (with the newest content)
 * @param reread how often the publisher reads the pool's slices and the Node from the server again
 *     and writes what differs: slices someone else deleted come back, and a re-created Node (a new
 *     UID) becomes their owner
 */
public record PublishSettings(double qps, int burst, Backoff backoff, Duration reread) {
  /** How often the slices are read again by default. */
  public static final Duration DEFAULT_REREAD = Duration.ofMinutes(1);

  /** Reading the slices again every {@link #DEFAULT_REREAD}. */
  public PublishSettings(double qps, int burst, Backoff backoff) {
    this(qps, burst, backoff, DEFAULT_REREAD);
  }

  /** Checks the rate is positive and the burst at least one request. */
  public PublishSettings {
    if (!(qps > 0)) {
      throw new IllegalArgumentException("migd.dra.qps must be positive, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("the burst must be at least 1, got " + burst);
    }
    Objects.requireNonNull(backoff);
    if (!reread.isPositive()) {
      throw new IllegalArgumentException("the reread interval must be positive, got " + reread);
    }
  }

  /** 20 requests per second, bursts of 40, retries after 1 s doubling up to 1 min. */
  public static PublishSettings defaults() {
    return new PublishSettings(20, 40, new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)));
  }
}
