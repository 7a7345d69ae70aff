package io.migd.pool;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A capacity's request policy on a device that allows multiple allocations ({@code
 * DeviceCapacity.requestPolicy}): what a share consumes of the capacity when its request names an
 * amount, and when it does not ({@link #defaultValue}).
 */
public sealed interface RequestPolicy {
  /** What a request that does not name this capacity consumes. */
  long defaultValue();

  /**
   * {@code validRange}: at least {@code min}, rounded up to {@code min + k * step}, at most {@code
   * max}.
   */
  record Range(long defaultValue, long min, OptionalLong max, OptionalLong step)
      implements RequestPolicy {
    /** Checks every part is there. */
    public Range {
      Objects.requireNonNull(max);
      Objects.requireNonNull(step);
    }
  }

  /** {@code validValues}: the smallest listed value at least the request. */
  record Values(long defaultValue, List<Long> values) implements RequestPolicy {
    /** Copies the list. */
    public Values {
      values = List.copyOf(values);
    }
  }
}
