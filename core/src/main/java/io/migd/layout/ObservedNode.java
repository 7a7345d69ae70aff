package io.migd.layout;

import io.migd.nvml.NvmlException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every GPU of the node as NVML shows it now, in index order, and for each GPU NVML did not answer
 * for, the error: one GPU's failure never hides the others.
 */
public record ObservedNode(List<ObservedGpu> gpus, SortedMap<GpuIndex, NvmlException> unobserved) {
  /** Copies the list and the map. */
  public ObservedNode {
    gpus = List.copyOf(gpus);
    unobserved = Collections.unmodifiableSortedMap(new TreeMap<>(unobserved));
  }

  /** GPUs that were all observed. */
  public ObservedNode(List<ObservedGpu> gpus) {
    this(gpus, new TreeMap<>());
  }

  /** Every GPU of the node, observed or not, in index order. */
  public SortedSet<GpuIndex> indices() {
    var all = new TreeSet<>(unobserved.keySet());
    gpus.forEach(gpu -> all.add(gpu.index()));
    return Collections.unmodifiableSortedSet(all);
  }

  /** The GPU at {@code index}, when it was observed. */
  public Optional<ObservedGpu> gpu(GpuIndex index) {
    return gpus.stream().filter(g -> g.index().equals(index)).findFirst();
  }

  /** This node with {@code gpu} observed again (in place of what was known of its index). */
  public ObservedNode with(ObservedGpu gpu) {
    var others = without(gpu.index());
    var answered = new TreeMap<GpuIndex, ObservedGpu>();
    others.gpus().forEach(g -> answered.put(g.index(), g));
    answered.put(gpu.index(), gpu);
    return new ObservedNode(List.copyOf(answered.values()), others.unobserved());
  }

  /** This node with the GPU at {@code index} failing to be observed with {@code error}. */
  public ObservedNode with(GpuIndex index, NvmlException error) {
    var others = without(index);
    var failed = new TreeMap<>(others.unobserved());
    failed.put(index, error);
    return new ObservedNode(others.gpus(), failed);
  }

  private ObservedNode without(GpuIndex index) {
    var failed = new TreeMap<>(unobserved);
    failed.remove(index);
    return new ObservedNode(gpus.stream().filter(g -> !g.index().equals(index)).toList(), failed);
  }

  /** No GPU at all: NVML could not even count them, or nothing was observed yet. */
  public static ObservedNode none() {
    return new ObservedNode(List.of(), new TreeMap<>());
  }
}
