package io.migd.pool;

import io.migd.nvml.InstancePlacement;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * A dynamic GPU's counter set, {@code gpu-<minor>-counter-set}, and what its devices consume of it:
 * {@code memory-slice-<i>} = 1 for each memory slice, and {@code memory}, {@code multiprocessors},
 * {@code copy-engines}, {@code decoders}, {@code encoders}, {@code jpeg-engines}, {@code
 * ofa-engines}, each the largest value any GPU-instance profile has ({@code memory} at least the
 * most one layout takes, see {@link #mostMemoryOfOneLayout}). A MIG device consumes its profile's
 * values and the memory slices of its placement, the whole GPU exactly the counter values, so the
 * scheduler never hands out overlapping placements, or a GPU and its slices.
 */
final class GpuCounters {
  private static final String MEMORY = ProfileQuantity.MEMORY.counterName();

  private final CounterSet set;

  GpuCounters(GpuFacts facts) {
    int memorySlices =
        facts.profiles().stream()
            .flatMap(p -> p.placements().stream())
            .mapToInt(at -> at.start() + at.size())
            .max()
            .orElse(0);
    var counters = new LinkedHashMap<String, Long>();
    for (int i = 0; i < memorySlices; i++) {
      counters.put(memorySlice(i), 1L);
    }
    for (GpuFacts.MigProfile profile : facts.profiles()) {
      profileValues(profile).forEach((name, value) -> counters.merge(name, value, Math::max));
    }
    counters.merge(MEMORY, mostMemoryOfOneLayout(facts, memorySlices), Math::max);
    this.set = new CounterSet(name(facts.minor()), counters);
  }

  /**
   * The most memory GPU instances that do not overlap can have together. Smaller profiles may have
   * more memory per memory slice than the largest (B200: six {@code 1g.23gb} and a {@code 1g.45gb}
   * take 180480 MiB, {@code 7g.180gb} 180224), so the largest profile's memory alone would make the
   * scheduler refuse a layout the GPU holds; the memory slices keep placements apart anyway.
   */
  private static long mostMemoryOfOneLayout(GpuFacts facts, int memorySlices) {
    long[] most = new long[memorySlices + 1];
    for (int end = 1; end <= memorySlices; end++) {
      most[end] = most[end - 1];
      for (GpuFacts.MigProfile profile : facts.profiles()) {
        for (InstancePlacement at : profile.placements()) {
          if (at.start() + at.size() == end) {
            most[end] =
                Math.max(
                    most[end], most[at.start()] + DeviceAttributes.mebibytes(profile.memoryMiB()));
          }
        }
      }
    }
    return most[memorySlices];
  }

  /** {@code gpu-<minor>-counter-set}. */
  static String name(int minor) {
    return "gpu-" + minor + "-counter-set";
  }

  CounterSet set() {
    return set;
  }

  /** What a MIG device of {@code profile} at {@code at} consumes. */
  CounterConsumption of(GpuFacts.MigProfile profile, InstancePlacement at) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = at.start(); i < at.start() + at.size(); i++) {
      counters.put(memorySlice(i), 1L);
    }
    counters.putAll(profileValues(profile));
    return new CounterConsumption(set.name(), counters);
  }

  /** What the whole GPU consumes: everything. */
  CounterConsumption wholeGpu() {
    return new CounterConsumption(set.name(), set.counters());
  }

  private static String memorySlice(int i) {
    return "memory-slice-" + i;
  }

  private static SequencedMap<String, Long> profileValues(GpuFacts.MigProfile profile) {
    var values = new LinkedHashMap<String, Long>();
    for (ProfileQuantity quantity : ProfileQuantity.values()) {
      values.put(quantity.counterName(), quantity.of(profile));
    }
    return values;
  }
}
