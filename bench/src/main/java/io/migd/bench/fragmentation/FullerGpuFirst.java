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
    devices.sort(
        Comparator.comparingInt((PoolSlice s) -> -used.getOrDefault(gpuOf(s), 0))
            .thenComparingInt(FullerGpuFirst::gpuOf));
    var reordered = new ArrayList<>(slices);
    for (int i = 0; i < positions.size(); i++) {
      // the names keep their order: the fullest GPU's devices take the first device slice's name
      reordered.set(positions.get(i), new PoolSlice(names.get(i), devices.get(i).content()));
    }
    return new PoolContent(content.driver(), content.pool(), reordered);
  }

  private static int gpuOf(PoolSlice slice) {
    return ((PoolSlice.Devices) slice.content()).gpu().value();
  }
}
