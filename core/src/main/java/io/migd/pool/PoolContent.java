package io.migd.pool;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything the node publishes for its DRA driver: the pool (named after the node) and its slices
 * in name order, counter-only slices first, then one device-only slice per GPU in minor order.
 */
public record PoolContent(String driver, String pool, List<PoolSlice> slices) {
  /** Copies the list. */
  public PoolContent {
    Objects.requireNonNull(driver);
    Objects.requireNonNull(pool);
    slices = List.copyOf(slices);
  }

  /** A pool with nothing in it (before the first reconcile, or with no GPU). */
  public static PoolContent empty(String driver, String pool) {
    return new PoolContent(driver, pool, List.of());
  }

  /** Every device of the pool, in publishing order. */
  public List<PoolDevice> devices() {
    return slices.stream()
        .map(PoolSlice::content)
        .flatMap(
            content ->
                content instanceof PoolSlice.Devices(var gpu, var devices)
                    ? devices.stream()
                    : Stream.empty())
        .toList();
  }

  /** The device of this name, if the pool publishes it. */
  public Optional<PoolDevice> device(String name) {
    return devices().stream().filter(d -> d.name().equals(name)).findFirst();
  }
}
