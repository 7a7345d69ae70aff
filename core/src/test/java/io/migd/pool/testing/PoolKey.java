package io.migd.pool.testing;

import java.util.Comparator;
import java.util.Objects;

/** A pool: the driver that publishes it and its name. Pools sort by driver, then name. */
public record PoolKey(String driver, String pool) implements Comparable<PoolKey> {
  private static final Comparator<PoolKey> ORDER =
      Comparator.comparing(PoolKey::driver).thenComparing(PoolKey::pool);

  /** Checks every part is there. */
  public PoolKey {
    Objects.requireNonNull(driver);
    Objects.requireNonNull(pool);
  }

  /** The pool a slice belongs to. */
  public static PoolKey of(PublishedSlice slice) {
    return new PoolKey(slice.driver(), slice.pool());
  }

  @Override
  public int compareTo(PoolKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return "pool " + pool + " of driver " + driver;
  }
}
