package io.migd.app;

import io.migd.pool.BuiltPool;
import java.util.HashMap;
import java.util.Map;

/** {@code migd_dra_free_placements} of a built pool: per GPU index, per profile, the count. */
final class FreePlacementCounts {
  private FreePlacementCounts() {}

  static Map<Integer, Map<String, Integer>> perGpu(BuiltPool built) {
    var perGpu = new HashMap<Integer, Map<String, Integer>>();
    built
        .freePlacements()
        .forEach(
            f ->
                perGpu
                    .computeIfAbsent(f.gpu().value(), g -> new HashMap<>())
                    .put(f.profile(), f.free()));
    return perGpu;
  }
}
