package io.migd.app;

import io.migd.claims.ClaimSource;
import io.migd.reconcile.StaticDeviceGuard;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Before a plan removes static devices (DESIGN section 12, "Who owns what"): the pool is
 * republished without them, so the scheduler allocates them to no new claim; once the API server
 * holds that pool (the publication of that number, or a newer one), the claims are listed once, and
 * a claim whose allocation names one of them blocks the plan. When no pool without them can be
 * built yet (the first reconcile after a start has not ended: the previous run's slices, which
 * still list them, are what the server holds) or the API server does not hold it within {@code
 * publishWait}, the devices are not withdrawn yet: the guard fails, which blocks the plan until the
 * next reconcile (issue 29). Called on the reconcile's thread, never under a lock.
 */
final class WithdrawThenListClaims implements StaticDeviceGuard {
  /** How long the plan waits for the API server to have the pool without the devices. */
  static final Duration PUBLISH_WAIT = Duration.ofSeconds(10);

  /** Waits for the publication of a pool. */
  @FunctionalInterface
  interface Published {
    /** Whether the pool numbered {@code number}, or a newer one, is on the server within wait. */
    boolean await(long number, Duration wait) throws InterruptedException;
  }

  private final Function<Collection<String>, OptionalLong> withdraw;
  private final Published published;
  private final ClaimSource claims;
  private final Duration publishWait;

  /**
   * @param withdraw leaves devices out of the pool; the number of the pool built without them, or
   *     empty when none can be built yet
   */
  WithdrawThenListClaims(
      Function<Collection<String>, OptionalLong> withdraw,
      Published published,
      ClaimSource claims,
      Duration publishWait) {
    this.withdraw = withdraw;
    this.published = published;
    this.claims = claims;
    this.publishWait = publishWait;
  }

  @Override
  public List<String> claimsHolding(List<String> deviceNames) {
    OptionalLong without = withdraw.apply(deviceNames);
    if (without.isEmpty()) {
      throw new IllegalStateException(
          "no pool is published yet in this run (the first reconcile has not ended, or the API"
              + " server has not answered migd's probe), so "
              + deviceNames
              + " cannot be withdrawn first");
    }
    boolean onServer;
    try {
      onServer = published.await(without.getAsLong(), publishWait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while withdrawing " + deviceNames, e);
    }
    if (!onServer) {
      throw new IllegalStateException(
          "the API server does not hold the pool without " + deviceNames + " after " + publishWait);
    }
    return claims.listAllocatedToPool().stream()
        .filter(c -> c.results().stream().anyMatch(r -> deviceNames.contains(r.device())))
        .map(c -> c.namespace() + "/" + c.name())
        .toList();
  }
}
