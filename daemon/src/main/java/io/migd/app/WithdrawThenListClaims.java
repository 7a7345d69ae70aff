package io.migd.app;

import io.migd.claims.ClaimSource;
import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.reconcile.StaticDeviceGuard;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Before a plan removes static devices (DESIGN section 12, "Who owns what"): the pool is
 * republished without them, so the scheduler allocates them to no new claim; once the API server
 * holds that pool (the publication of that number, or a newer one), the claims are listed once, and
 * a claim whose allocation names one of them blocks the plan. When no pool of this run can be built
 * yet (the first reconcile after a start has not ended), the slices on the server are read: while a
 * previous run's slice still lists a device it is not withdrawn, and neither is it when the API
 * server does not hold the pool without it within {@code publishWait}; then the guard fails, which
 * blocks the plan until the next reconcile (issue 29: "nothing published yet" was taken for
 * "withdrawn"). Called on the reconcile's thread, never under a lock.
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

  /** Reads the slices on the server. */
  @FunctionalInterface
  interface OnServer {
    /** Whether a slice of the node's pool on the server lists one of these devices now. */
    boolean lists(Collection<String> deviceNames) throws InterruptedException;
  }

  private final Function<Collection<String>, OptionalLong> withdraw;
  private final Published published;
  private final OnServer onServer;
  private final ClaimSource claims;
  private final Duration publishWait;
  private final Supplier<PoolContent> built;

  /**
   * @param withdraw leaves devices out of the pool; the number of the pool built without them, or
   *     empty when none can be built yet
   */
  WithdrawThenListClaims(
      Function<Collection<String>, OptionalLong> withdraw,
      Published published,
      OnServer onServer,
      ClaimSource claims,
      Duration publishWait) {
    this(withdraw, published, onServer, claims, publishWait, () -> PoolContent.empty("", ""));
  }

  /** As the five-argument form, with {@code built} the pool as last built (not yet published). */
  WithdrawThenListClaims(
      Function<Collection<String>, OptionalLong> withdraw,
      Published published,
      OnServer onServer,
      ClaimSource claims,
      Duration publishWait,
      Supplier<PoolContent> built) {
    this.withdraw = withdraw;
    this.published = published;
    this.onServer = onServer;
    this.claims = claims;
    this.publishWait = publishWait;
    this.built = built;
  }

  /**
   * The claims allocated a device of {@code gpu} that is not one of its static devices now: the
   * dynamic devices the pool still has for it are withdrawn first (and the API server awaited), so
   * no claim is allocated one after the answer; a claim allocated one before, prepared or not,
   * blocks the GPU's static plan.
   */
  @Override
  public List<String> claimsOfDynamicDevices(GpuIndex gpu) {
    PoolContent pool = built.get();
    var ofGpu = pool.devices().stream().filter(d -> d.origin().gpu().equals(gpu)).toList();
    Optional<Integer> minor =
        ofGpu.stream()
            .flatMap(d -> DeviceNames.parse(d.name()).stream())
            .map(DeviceNames.Parsed::minor)
            .findFirst();
    if (minor.isEmpty()) {
      return List.of();
    }
    List<String> dynamic =
        ofGpu.stream().filter(d -> dynamic(d.origin())).map(PoolDevice::name).toList();
    Set<String> staticNow =
        ofGpu.stream()
            .filter(d -> !dynamic(d.origin()))
            .map(PoolDevice::name)
            .collect(Collectors.toSet());
    if (!dynamic.isEmpty()) {
      withdrawAndAwait(dynamic);
    }
    return claims.listAllocatedToPool().stream()
        .filter(
            c ->
                c.results().stream()
                    .anyMatch(
                        r ->
                            !staticNow.contains(r.device())
                                && DeviceNames.parse(r.device())
                                    .map(p -> p.minor() == minor.get())
                                    .orElse(false)))
        .map(c -> c.namespace() + "/" + c.name())
        .toList();
  }

  private static boolean dynamic(DeviceOrigin origin) {
    return switch (origin) {
      case DeviceOrigin.DynamicPlacement _ -> true;
      case DeviceOrigin.WholeGpu(var _, var _, var dynamic) -> dynamic;
      case DeviceOrigin.StaticSlice _ -> false;
    };
  }

  @Override
  public List<String> claimsHolding(List<String> deviceNames) {
    withdrawAndAwait(deviceNames);
    return claims.listAllocatedToPool().stream()
        .filter(c -> c.results().stream().anyMatch(r -> deviceNames.contains(r.device())))
        .map(c -> c.namespace() + "/" + c.name())
        .toList();
  }

  /**
   * Leaves the devices out of the pool and waits until the API server holds a pool without them.
   */
  private void withdrawAndAwait(List<String> deviceNames) {
    OptionalLong without = withdraw.apply(deviceNames);
    try {
      if (without.isEmpty()) {
        if (onServer.lists(deviceNames)) {
          throw new IllegalStateException(
              "no pool is published yet in this run (the first reconcile has not ended, or the"
                  + " API server has not answered migd's probe) and the slices on the server"
                  + " still list "
                  + deviceNames);
        }
      } else if (!published.await(without.getAsLong(), publishWait)) {
        throw new IllegalStateException(
            "the API server does not hold the pool without "
                + deviceNames
                + " after "
                + publishWait);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while withdrawing " + deviceNames, e);
    }
  }
}
