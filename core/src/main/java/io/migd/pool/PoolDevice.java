package io.migd.pool;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One device of the pool, as its ResourceSlice lists it.
 *
 * @param name the device's name, a DNS label unique in the pool ({@code gpu-0}, {@code
 *     gpu-0-mig-1g10gb-19-0})
 * @param attributes unqualified names take the driver as their domain; {@code
 *     resource.kubernetes.io/...} names are written out
 * @param capacity capacity name to value (bytes for {@code memory})
 * @param consumes at most two counter-set consumptions (one, for migd's devices)
 * @param taints the device's taints; empty when healthy
 * @param origin what the device is on the node
 * @param allocation whether the scheduler allocates it to one claim or shares it among many
 */
public record PoolDevice(
    String name,
    SortedMap<String, Attribute> attributes,
    SortedMap<String, Long> capacity,
    List<CounterConsumption> consumes,
    List<Taint> taints,
    DeviceOrigin origin,
    Allocation allocation) {
  /** Copies the collections. */
  public PoolDevice {
    Objects.requireNonNull(name);
    attributes = Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
    capacity = Collections.unmodifiableSortedMap(new TreeMap<>(capacity));
    consumes = List.copyOf(consumes);
    taints = List.copyOf(taints);
    Objects.requireNonNull(origin);
    Objects.requireNonNull(allocation);
  }

  /** A device allocated to one claim at a time. */
  public PoolDevice(
      String name,
      SortedMap<String, Attribute> attributes,
      SortedMap<String, Long> capacity,
      List<CounterConsumption> consumes,
      List<Taint> taints,
      DeviceOrigin origin) {
    this(name, attributes, capacity, consumes, taints, origin, Allocation.EXCLUSIVE);
  }

  /** Whether the scheduler may allocate the device to many claims at once. */
  public boolean shared() {
    return allocation instanceof Allocation.Shared;
  }
}
