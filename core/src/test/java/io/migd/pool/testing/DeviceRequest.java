package io.migd.pool.testing;

import io.migd.pool.Attribute;
import io.migd.pool.PoolDevice;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An {@code ExactCount} request of a claim, with the few selectors the tests need instead of CEL. A
 * device matches when it matches every selector.
 *
 * @param name the request's name, as the allocation result's {@code request}
 * @param count how many devices the request takes
 * @param capacity {@code capacity.requests}: capacity name to the amount asked (bytes for {@code
 *     memory}, percent for {@code compute}); empty when the request asks for none
 */
public record DeviceRequest(
    String name, int count, List<Selector> selectors, SortedMap<String, Long> capacity) {
  /** What a request selects on. */
  public sealed interface Selector {
    /** Whether the device matches; {@code driver} qualifies unqualified attribute names. */
    boolean matches(String driver, PoolDevice device);

    /**
     * {@code device.attributes[driver].<attribute> == value}, a string attribute such as {@code
     * type} ({@code gpu} or {@code mig}) or {@code profile} ({@code 1g.10gb}).
     */
    record TextIs(String attribute, String value) implements Selector {
      /** Checks every part is there. */
      public TextIs {
        Objects.requireNonNull(attribute);
        Objects.requireNonNull(value);
      }

      @Override
      public boolean matches(String driver, PoolDevice device) {
        var found = device.attributes().get(attribute);
        if (found == null) {
          found = device.attributes().get(driver + "/" + attribute);
        }
        return found instanceof Attribute.Text(var text) && text.equals(value);
      }
    }

    /** {@code device.capacity[driver].memory >= bytes}. */
    record MinMemory(long bytes) implements Selector {
      @Override
      public boolean matches(String driver, PoolDevice device) {
        var memory = device.capacity().get("memory");
        if (memory == null) {
          memory = device.capacity().get(driver + "/memory");
        }
        return memory != null && memory >= bytes;
      }
    }

    /**
     * {@code device.allowMultipleAllocations == shared}: the DeviceClass {@code share.migd.io}
     * selects {@code true}.
     */
    record AllowsMultipleAllocations(boolean shared) implements Selector {
      @Override
      public boolean matches(String driver, PoolDevice device) {
        return device.shared() == shared;
      }
    }
  }

  /** Checks the count and amounts, and copies the selectors and capacity requests. */
  public DeviceRequest {
    Objects.requireNonNull(name);
    if (count < 1) {
      throw new IllegalArgumentException("request " + name + " needs a count of at least 1");
    }
    selectors = List.copyOf(selectors);
    capacity = Collections.unmodifiableSortedMap(new TreeMap<>(capacity));
    capacity.forEach(
        (capacityName, amount) -> {
          if (amount < 0) {
            throw new IllegalArgumentException(
                "request " + name + " asks a negative " + capacityName + " (" + amount + ")");
          }
        });
  }

  /** A request that asks for no capacity. */
  public DeviceRequest(String name, int count, List<Selector> selectors) {
    this(name, count, selectors, new TreeMap<>());
  }

  /**
   * One share of a device that allows multiple allocations (the {@code share.migd.io} class),
   * asking these capacities.
   */
  public static DeviceRequest share(String name, Map<String, Long> capacity) {
    return new DeviceRequest(
        name, 1, List.of(new Selector.AllowsMultipleAllocations(true)), new TreeMap<>(capacity));
  }

  /** One device of this profile. */
  public static DeviceRequest profile(String name, String profile) {
    return new DeviceRequest(name, 1, List.of(new Selector.TextIs("profile", profile)));
  }

  /** {@code count} devices of this type. */
  public static DeviceRequest type(String name, String type, int count) {
    return new DeviceRequest(name, count, List.of(new Selector.TextIs("type", type)));
  }

  /** One device with at least this much memory. */
  public static DeviceRequest memoryAtLeast(String name, long bytes) {
    return new DeviceRequest(name, 1, List.of(new Selector.MinMemory(bytes)));
  }

  /** Whether the device matches every selector. */
  public boolean matches(String driver, PoolDevice device) {
    return selectors.stream().allMatch(s -> s.matches(driver, device));
  }
}
