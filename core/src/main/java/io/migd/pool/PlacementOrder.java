package io.migd.pool;

import io.migd.nvml.InstancePlacement;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The preference order of a dynamic GPU's MIG devices (the scheduler takes the first that fits):
 * profiles by memory ascending, then profile id; within a profile by descending score, ties to the
 * higher start. The score of a placement is the sum over every profile p of size(p) times the
 * placements of p still free once this one is taken, so a small claim goes where it strands the
 * least: beside a prepared instance, not in the middle of an empty GPU.
 */
final class PlacementOrder {
  private PlacementOrder() {}

  /** A profile at one of its placements. */
  record Spot(GpuFacts.MigProfile profile, InstancePlacement at) {
    boolean overlaps(int start, int size) {
      return at.start() < start + size && start < at.start() + at.size();
    }

    boolean overlaps(Spot other) {
      return overlaps(other.at.start(), other.at.size());
    }
  }

  /** {@code spots} in preference order, scored against the free ones. */
  static List<Spot> order(Collection<Spot> spots, Collection<Spot> free) {
    Map<Spot, Long> scores =
        spots.stream().distinct().collect(Collectors.toMap(s -> s, s -> score(s, free)));
    return spots.stream()
        .sorted(
            Comparator.<Spot>comparingLong(s -> s.profile().memoryMiB())
                .thenComparingInt(s -> s.profile().giProfileId())
                .thenComparing(Comparator.<Spot>comparingLong(scores::get).reversed())
                .thenComparing(Comparator.<Spot>comparingInt(s -> s.at().start()).reversed()))
        .toList();
  }

  /**
   * Memory slices of the free placements left once {@code taken} is; -1 for a placement that is not
   * free (it cannot be taken, so it goes after every one that can).
   */
  static long score(Spot taken, Collection<Spot> free) {
    if (!free.contains(taken)) {
      return -1;
    }
    return free.stream().filter(s -> !s.overlaps(taken)).mapToLong(s -> s.at().size()).sum();
  }
}
