package io.migd.pool;

import java.util.List;

/**
 * What one GPU contributes to the pool: its devices in preference order, its counter set (one for a
 * dynamic GPU, none for a static one), why something it has is not published, and its free
 * placements per profile.
 */
record GpuDevices(
    List<PoolDevice> devices,
    List<CounterSet> counterSets,
    List<String> reasons,
    List<FreePlacements> freePlacements) {
  GpuDevices {
    devices = List.copyOf(devices);
    counterSets = List.copyOf(counterSets);
    reasons = List.copyOf(reasons);
    freePlacements = List.copyOf(freePlacements);
  }
}
