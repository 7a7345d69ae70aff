package io.migd.node;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How many requests one writer may send to the API server (DESIGN section 13, "Requests to the API
 * server are bounded"): a token bucket holding at most {@code burst} requests, refilled at {@code
 * qps} per second, so over any time T at most {@code burst + qps * T} requests go; and after a
 * failed request a wait before the next one, the {@link Backoff} of consecutive failures, or longer
 * when the API server said how long ({@code Retry-After} of a {@code 429} or {@code 503}, which it
 * also puts in the Status' {@code details.retryAfterSeconds}).
 *
 * <p>The Node writer ({@code migd.node.qps}) and the ResourceSlice publisher ({@code migd.dra.qps})
 * each have one. Reads made for a kubelet call and the access reviews have none: they are not
 * throttled, and the client's request timeout (10 s) bounds them.
 */
public final class RequestBudget {
  private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

  private final double qps;
  private final int burst;
  private final Backoff backoff;
  private final LongSupplier nanoTime;
  private final Object lock = new Object();

  // guarded by lock; nothing slow is done while holding it
  private double tokens;
  private long refilledAt;
  private long notBefore;
  private int failures;

  /** A full bucket of {@code burst} requests refilled at {@code qps} per second. */
  public RequestBudget(double qps, int burst, Backoff backoff) {
    this(qps, burst, backoff, System::nanoTime);
  }

  /** As above, reading the time from {@code nanoTime} (tests move it by hand). */
  RequestBudget(double qps, int burst, Backoff backoff, LongSupplier nanoTime) {
    if (!(qps > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "the request rate must be positive and the burst at least 1, got "
              + qps
              + " and "
              + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.backoff = Objects.requireNonNull(backoff);
    this.nanoTime = Objects.requireNonNull(nanoTime);
    this.tokens = burst;
    this.refilledAt = nanoTime.getAsLong();
    this.notBefore = refilledAt;
  }

  /** The default of the Node writer: 5 requests per second, bursts of 10, backoff 1 s to 1 min. */
  public static RequestBudget nodeDefaults() {
    return new RequestBudget(5, 10, new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)));
  }

  /**
   * Takes one request if it may go now and returns zero; otherwise takes nothing and returns how
   * long to wait before asking again (the rest of a backoff, or until the bucket holds a request).
   */
  Duration tryTake() {
    synchronized (lock) {
      long now = nanoTime.getAsLong();
      if (now - notBefore < 0) {
        return Duration.ofNanos(notBefore - now);
      }
      tokens = Math.min(burst, tokens + (now - refilledAt) * qps / NANOS_PER_SECOND);
      refilledAt = now;
      if (tokens >= 1) {
        tokens -= 1;
        return Duration.ZERO;
      }
      return Duration.ofNanos(Math.max(1, (long) Math.ceil((1 - tokens) / qps * NANOS_PER_SECOND)));
    }
  }

  /** Waits until a request may go, then takes it. */
  public void take() throws InterruptedException {
    Duration wait;
    while (!(wait = tryTake()).isZero()) {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
    }
  }

  /** A request succeeded: the backoff starts again from its first delay. */
  public void succeeded() {
    synchronized (lock) {
      failures = 0;
    }
  }

  /**
   * A request failed with {@code error}: no request goes before the returned wait, the backoff of
   * this many consecutive failures or what the API server asked for, whichever is longer.
   */
  public Duration failed(Throwable error) {
    synchronized (lock) {
      failures++;
      Duration wait = backoff.delay(failures);
      Duration asked = retryAfter(error);
      if (asked.compareTo(wait) > 0) {
        wait = asked;
      }
      notBefore = nanoTime.getAsLong() + wait.toNanos();
      return wait;
    }
  }

  /**
   * How long the API server asked to wait in a {@code 429} or {@code 5xx} answer; zero when it did
   * not say, or the error is not such an answer.
   */
  static Duration retryAfter(Throwable error) {
    if (!(error instanceof KubernetesClientException e) || !isOverloaded(e.getCode())) {
      return Duration.ZERO;
    }
    Status status = e.getStatus();
    StatusDetails details = status == null ? null : status.getDetails();
    Integer seconds = details == null ? null : details.getRetryAfterSeconds();
    return seconds == null || seconds <= 0 ? Duration.ZERO : Duration.ofSeconds(seconds);
  }

  /** Whether an HTTP status says the API server is overloaded or failing: 429 or 5xx. */
  static boolean isOverloaded(int code) {
    return code == 429 || code >= 500;
  }

  /**
   * Whether {@code error} says the API server is in trouble (a {@code 429} or {@code 5xx}, or no
   * answer at all) rather than refusing this one request (another {@code 4xx}, such as a missing
   * permission), which waiting does not help.
   */
  public static boolean isServerTrouble(Throwable error) {
    return !(error instanceof KubernetesClientException e)
        || e.getCode() <= 0
        || isOverloaded(e.getCode());
  }
}
