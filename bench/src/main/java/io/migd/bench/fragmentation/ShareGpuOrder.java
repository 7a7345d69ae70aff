package io.migd.bench.fragmentation;

import io.migd.bench.fragmentation.MigdPool.HeldShare;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolSlice;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Experiments, not migd's order: migd's pool with the GPUs' device slices renamed so that the
 * scheduler meets GPUs in the order of how much of them shares hold (memory and compute, each as a
 * fraction of the GPU, summed), instead of in minor order. They ask whether packing shares across
 * GPUs, best fit or worst fit, admits more of {@link Fractions}' claims (it barely moves them: see
 * bench/README.md, "Fractions").
 */
enum ShareGpuOrder {
  /** What migd publishes: the GPUs' slices in minor order. */
  MIGD,
  /** The GPU that shares use most first (best fit). */
  FULLER_GPU_FIRST,
  /** The GPU that shares use least first (worst fit). */
  EMPTIER_GPU_FIRST;

  /** The order {@code -Dfractions.order} names ({@code migd}, the default, or an experiment). */
  static ShareGpuOrder fromSystemProperty() {
    String name = System.getProperty("fractions.order", "migd");
    try {
      return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-Dfractions.order: migd, fuller-gpu-first or emptier-gpu-first, not " + name, e);
    }
  }

  /** {@code content} with its device slices in this order. */
  PoolContent apply(PoolContent content, Collection<HeldShare> held) {
    if (this == MIGD) {
      return content;
    }
    Map<Integer, Double> used = new HashMap<>();
    for (HeldShare h : held) {
      double memory = (double) h.share().memoryBytes() / h.gpu().memoryBytes();
      double compute = h.share().computePercent() / 100.0;
      used.merge(h.gpu().gpu().value(), memory + compute, Double::sum);
    }
    Comparator<PoolSlice> byUse =
        Comparator.comparingDouble(s -> used.getOrDefault(FullerGpuFirst.gpuOf(s), 0.0));
    // a stable sort: GPUs used alike keep minor order
    return FullerGpuFirst.inOrder(content, this == FULLER_GPU_FIRST ? byUse.reversed() : byUse);
  }
}
