package io.migd.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which slices are in use and by whom: processes NVML reports and pods the kubelet allocated them
 * to. A slice is a compute instance; {@link #ALL_COMPUTE_INSTANCES} stands for a user of the GPU
 * instance as a whole, and a GPU-instance id of {@link #WHOLE_GPU} for a user of a GPU without MIG.
 */
public record Usage(Map<SliceKey, List<String>> holders) {
  /** Compute-instance id meaning "the whole GPU instance". */
  public static final int ALL_COMPUTE_INSTANCES = -1;

  /** GPU-instance id meaning "the whole GPU". */
  public static final int WHOLE_GPU = -1;

  /** Nothing in use. */
  public static final Usage NONE = new Usage(Map.of());

  /** Where a holder is. */
  public record SliceKey(GpuIndex gpu, int gpuInstanceId, int computeInstanceId)
      implements Comparable<SliceKey> {
    @Override
    public int compareTo(SliceKey o) {
      int c = gpu.compareTo(o.gpu);
      if (c == 0) {
        c = Integer.compare(gpuInstanceId, o.gpuInstanceId);
      }
      return c != 0 ? c : Integer.compare(computeInstanceId, o.computeInstanceId);
    }
  }

  /** Copies the map, sorted, with the holder lists. */
  public Usage {
    var copy = new TreeMap<SliceKey, List<String>>();
    holders.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    holders = java.util.Collections.unmodifiableSortedMap(copy);
  }

  /** The holders of both, {@code other}'s after this one's where both name a slice. */
  public Usage merge(Usage other) {
    var merged = new TreeMap<SliceKey, List<String>>();
    holders.forEach((k, v) -> merged.put(k, new ArrayList<>(v)));
    other.holders.forEach((k, v) -> merged.computeIfAbsent(k, key -> new ArrayList<>()).addAll(v));
    return new Usage(merged);
  }

  /**
   * Who holds a compute instance: its own users, those of its GPU instance as a whole, and those of
   * the whole GPU (a pod given a MIG-enabled GPU whole, with the {@code none} strategy).
   */
  public List<String> holdersOf(GpuIndex gpu, int gpuInstanceId, int computeInstanceId) {
    var result = new java.util.ArrayList<String>();
    result.addAll(
        holders.getOrDefault(new SliceKey(gpu, gpuInstanceId, computeInstanceId), List.of()));
    result.addAll(
        holders.getOrDefault(new SliceKey(gpu, gpuInstanceId, ALL_COMPUTE_INSTANCES), List.of()));
    result.addAll(wholeGpuHolders(gpu));
    return List.copyOf(result);
  }

  /** Who holds anything in a GPU instance, or the whole GPU. */
  public List<String> holdersOf(GpuIndex gpu, int gpuInstanceId) {
    var result = new java.util.ArrayList<String>();
    holders.entrySet().stream()
        .filter(e -> e.getKey().gpu().equals(gpu) && e.getKey().gpuInstanceId() == gpuInstanceId)
        .forEach(e -> result.addAll(e.getValue()));
    result.addAll(wholeGpuHolders(gpu));
    return List.copyOf(result);
  }

  private List<String> wholeGpuHolders(GpuIndex gpu) {
    return holders.getOrDefault(new SliceKey(gpu, WHOLE_GPU, ALL_COMPUTE_INSTANCES), List.of());
  }

  /** Who holds anything on a GPU. */
  public List<String> holdersOf(GpuIndex gpu) {
    return holders.entrySet().stream()
        .filter(e -> e.getKey().gpu().equals(gpu))
        .flatMap(e -> e.getValue().stream())
        .toList();
  }
}
