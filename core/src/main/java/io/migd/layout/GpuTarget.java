package io.migd.layout;

import java.util.List;
import java.util.Objects;

/**
 * What one GPU should look like: its MIG mode, the GPU instances it should hold (in any order,
 * placements left to the planner), and for a GPU without MIG (or with MIG disabled) the number of
 * time-sliced replicas it is advertised as (1 = the whole GPU).
 */
public record GpuTarget(
    GpuIndex gpu, boolean migEnabled, List<GpuInstanceSpec> gpuInstances, int replicas) {
  /** Checks that MIG instances are asked for only with MIG enabled. */
  public GpuTarget {
    Objects.requireNonNull(gpu);
    gpuInstances = List.copyOf(gpuInstances);
    if (!migEnabled && !gpuInstances.isEmpty()) {
      throw new IllegalArgumentException("GPU " + gpu + ": instances asked for with MIG disabled");
    }
    if (replicas < 1) {
      throw new IllegalArgumentException("GPU " + gpu + ": replicas must be at least 1");
    }
  }

  /** MIG enabled with these GPU instances. */
  public static GpuTarget mig(GpuIndex gpu, List<GpuInstanceSpec> gpuInstances) {
    return new GpuTarget(gpu, true, gpuInstances, 1);
  }

  /** MIG disabled, the whole GPU time-sliced into {@code replicas}. */
  public static GpuTarget whole(GpuIndex gpu, int replicas) {
    return new GpuTarget(gpu, false, List.of(), replicas);
  }
}
