package io.migd.app;

import io.migd.claims.ClaimSource;
import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.reconcile.StaticDeviceGuard;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a plan removes static devices (DESIGN section 12, "Who owns what"): the pool is
 * republished without them, so the scheduler allocates them to no new claim; once the API server
 * has that pool (or after {@code publishWait}, said in the log), the claims are listed once, and a
 * claim whose allocation names one of them blocks the plan. Called on the reconcile's thread, never
 * under a lock.
 */
final class WithdrawThenListClaims implements StaticDeviceGuard {
  /** How long the plan waits for the API server to have the pool without the devices. */
  static final Duration PUBLISH_WAIT = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(WithdrawThenListClaims.class);
  private static final long POLL_MILLIS = 50;

  private final Consumer<List<String>> withdraw;
  private final Supplier<Optional<PoolContent>> published;
  private final ClaimSource claims;
  private final Duration publishWait;
  private final Supplier<PoolContent> built;

  WithdrawThenListClaims(
      Consumer<List<String>> withdraw,
      Supplier<Optional<PoolContent>> published,
      ClaimSource claims,
      Duration publishWait) {
    this(withdraw, published, claims, publishWait, () -> PoolContent.empty("", ""));
  }

  /** As the four-argument form, with {@code built} the pool as last built (not yet published). */
  WithdrawThenListClaims(
      Consumer<List<String>> withdraw,
      Supplier<Optional<PoolContent>> published,
      ClaimSource claims,
      Duration publishWait,
      Supplier<PoolContent> built) {
    this.withdraw = withdraw;
    this.published = published;
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
      withdraw.accept(dynamic);
      awaitPublishedWithout(Set.copyOf(dynamic));
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
    withdraw.accept(deviceNames);
    awaitPublishedWithout(Set.copyOf(deviceNames));
    return claims.listAllocatedToPool().stream()
        .filter(c -> c.results().stream().anyMatch(r -> deviceNames.contains(r.device())))
        .map(c -> c.namespace() + "/" + c.name())
        .toList();
  }

  private void awaitPublishedWithout(Set<String> names) {
    long deadline = System.nanoTime() + publishWait.toNanos();
    while (published.get().map(p -> lists(p, names)).orElse(false)) {
      if (System.nanoTime() - deadline > 0) {
        log.warn(
            "the API server does not show the pool without devices={} after {}; the claims are"
                + " listed anyway",
            names,
            publishWait);
        return;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static boolean lists(PoolContent pool, Set<String> names) {
    return pool.devices().stream().map(PoolDevice::name).anyMatch(names::contains);
  }
}
