package io.migd.pool;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.Objects;

/**
 * One ResourceSlice of the pool: either counter sets only or one GPU's devices only (a slice may
 * not hold both from Kubernetes 1.35).
 *
 * @param name {@code <3 hex digits>-<driver>-<node>}; the names sort in publishing order
 */
public record PoolSlice(String name, Content content) {
  /** What a slice holds. */
  public sealed interface Content {}

  /** At most 8 counter sets. */
  public record Counters(List<CounterSet> counterSets) implements Content {
    /** Copies the list. */
    public Counters {
      counterSets = List.copyOf(counterSets);
    }
  }

  /**
   * One GPU's devices, at most 64, in preference order (the scheduler takes the first that fits).
   */
  public record Devices(GpuIndex gpu, List<PoolDevice> devices) implements Content {
    /** Copies the list. */
    public Devices {
      Objects.requireNonNull(gpu);
      devices = List.copyOf(devices);
    }
  }

  /** Checks every part is there. */
  public PoolSlice {
    Objects.requireNonNull(name);
    Objects.requireNonNull(content);
  }
}
