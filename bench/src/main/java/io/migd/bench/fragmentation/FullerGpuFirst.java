package io.migd.bench.fragmentation;

import io.migd.bench.fragmentation.MigdPool.Held;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * An experiment, not migd's order: migd's devices, but the GPUs' device slices named so that the
 * scheduler meets the GPU holding the most memory slices first (then minor order), as a "best-fit
 * GPU" policy would publish them. DESIGN.md section 12 fixes the slices in minor order; this asks
 * whether packing across GPUs would strand fewer claims (it does not: see bench/README.md,
 * "Fragmentation").
 */
final class FullerGpuFirst {
  private FullerGpuFirst() {}

  static PoolContent of(PoolContent content, Collection<Held> held) {
    Map<Integer, Integer> used = new HashMap<>();
    for (Held h : held) {
      used.merge(h.gpu().gpu().value(), h.profile().sliceCount(), Integer::sum);
    }
    return inOrder(
        content,
        Comparator.comparingInt((PoolSlice s) -> -used.getOrDefault(gpuOf(s), 0))
            .thenComparingInt(FullerGpuFirst::gpuOf));
  }

  /**
   * {@code content} with its GPUs' device slices sorted by {@code order} (a stable sort), the
   * slices' names kept where they were: the first GPU in {@code order} takes the first device
   * slice's name, so the scheduler, which meets slices in name order, meets it first.
   */
  static PoolContent inOrder(PoolContent content, Comparator<PoolSlice> order) {
    var slices = content.slices();
    var positions = new ArrayList<Integer>();
    var names = new ArrayList<String>();
    var devices = new ArrayList<PoolSlice>();
    for (int i = 0; i < slices.size(); i++) {
      if (slices.get(i).content() instanceof PoolSlice.Devices) {
        positions.add(i);
        names.add(slices.get(i).name());
        devices.add(slices.get(i));
      }
    }
    devices.sort(order);
    var reordered = new ArrayList<>(slices);
    for (int i = 0; i < positions.size(); i++) {
      reordered.set(positions.get(i), new PoolSlice(names.get(i), devices.get(i).content()));
    }
    return new PoolContent(content.driver(), content.pool(), reordered);
  }

  /** The GPU whose devices {@code slice} holds. */
  static int gpuOf(PoolSlice slice) {
    return ((PoolSlice.Devices) slice.content()).gpu().value();
  }
}
