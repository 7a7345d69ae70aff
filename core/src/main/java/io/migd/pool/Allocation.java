package io.migd.pool;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/** How the scheduler may allocate a device: to one claim, or to many as shares. */
public sealed interface Allocation {
  /** One claim at a time (no {@code allowMultipleAllocations}). */
  record Exclusive() implements Allocation {}

  /**
   * {@code allowMultipleAllocations: true}: every allocation is a share that consumes part of the
   * device's capacities.
   *
   * @param policies capacity name to its request policy
   */
  record Shared(SortedMap<String, RequestPolicy> policies) implements Allocation {
    /** Copies the map. */
    public Shared {
      policies = Collections.unmodifiableSortedMap(new TreeMap<>(policies));
    }
  }

  /** The exclusive allocation. */
  Allocation EXCLUSIVE = new Exclusive();
}
