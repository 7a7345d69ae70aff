package io.migd.pool;

import io.migd.layout.GpuIndex;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link PoolBuilder} makes of the node: the content to publish, and beside it what the REST
 * surface, the log and the metrics show of it.
 *
 * @param reasons per GPU, why something it has is not published (a placement withheld, Ampere's MIG
 *     mode not on yet, an attribute left out); GPUs with nothing to say are absent
 * @param freePlacements per dynamic GPU and profile, in publishing order
 */
public record BuiltPool(
    PoolContent content,
    SortedMap<GpuIndex, List<String>> reasons,
    List<FreePlacements> freePlacements) {
  /** Copies the collections. */
  public BuiltPool {
    Objects.requireNonNull(content);
    var copy = new TreeMap<GpuIndex, List<String>>();
    reasons.forEach((gpu, list) -> copy.put(gpu, List.copyOf(list)));
    reasons = Collections.unmodifiableSortedMap(copy);
    freePlacements = List.copyOf(freePlacements);
  }

  /** The reasons of one GPU; empty when it publishes everything it has. */
  public List<String> reasons(GpuIndex gpu) {
    return reasons.getOrDefault(gpu, List.of());
  }

  /** The free placements of one GPU by profile name, in publishing order. */
  public Map<String, Integer> freePlacements(GpuIndex gpu) {
    var byProfile = new LinkedHashMap<String, Integer>();
    freePlacements.stream()
        .filter(f -> f.gpu().equals(gpu))
        .forEach(f -> byProfile.put(f.profile(), f.free()));
    return Collections.unmodifiableMap(byProfile);
  }
}
