package io.migd.bench.fragmentation;

import io.migd.pool.GpuFacts;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the node's pool depends on during the benchmark: its GPUs and the devices allocated to
 * claims (prepared at once, so migd republishes its order after each one).
 *
 * @param allocated names of the devices claims hold
 */
public record BenchState(String driver, String node, List<GpuFacts> gpus, Set<String> allocated) {
  /** Copies the collections. */
  public BenchState {
    Objects.requireNonNull(driver);
    Objects.requireNonNull(node);
    gpus = List.copyOf(gpus);
    allocated = Set.copyOf(allocated);
  }
}
