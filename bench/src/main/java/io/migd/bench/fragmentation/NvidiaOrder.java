package io.migd.bench.fragmentation;

import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import java.util.Comparator;

/**
 * The baseline: the same devices and slices (GPUs in minor order), each GPU's devices sorted by
 * name, as NVIDIA's DRA driver lists them ({@code reference/dra-api.md} 3.1). Sorting by name puts
 * {@code 1g} placements at start 0 first, so small claims land where large profiles need room.
 */
final class NvidiaOrder {
  private NvidiaOrder() {}

  static PoolContent of(PoolContent content) {
    return new PoolContent(
        content.driver(),
        content.pool(),
        content.slices().stream().map(NvidiaOrder::slice).toList());
  }

  /** One slice: a GPU's devices sorted by name, counters as they are. */
  static PoolSlice slice(PoolSlice slice) {
    return switch (slice.content()) {
      case PoolSlice.Counters _ -> slice;
      case PoolSlice.Devices(var gpu, var devices) ->
          new PoolSlice(
              slice.name(),
              new PoolSlice.Devices(
                  gpu, devices.stream().sorted(Comparator.comparing(PoolDevice::name)).toList()));
    };
  }
}
