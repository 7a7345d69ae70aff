package io.migd.layout;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one GPU should look like: its MIG mode, the GPU instances it should hold (in any order,
 * placements left to the planner), how the GPU is shared when its MIG mode is off ({@code sharing}:
 * time-sliced into 1 replica is the whole GPU), and how the MIG slices of each profile are shared
 * ({@code sliceSharing}; a profile absent there is not shared).
 */
public record GpuTarget(
    GpuIndex gpu,
    boolean migEnabled,
    List<GpuInstanceSpec> gpuInstances,
    Sharing sharing,
    Map<ProfileName, Sharing> sliceSharing) {
  /** Checks that MIG instances and their sharing are asked for only with MIG enabled. */
  public GpuTarget {
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(sharing);
    gpuInstances = List.copyOf(gpuInstances);
    if (!migEnabled && !gpuInstances.isEmpty()) {
      throw new IllegalArgumentException("GPU " + gpu + ": instances asked for with MIG disabled");
    }
    if (!migEnabled && !sliceSharing.isEmpty()) {
      throw new IllegalArgumentException(
          "GPU " + gpu + ": sharing of MIG slices asked for with MIG disabled");
    }
    sliceSharing = Collections.unmodifiableMap(new LinkedHashMap<>(sliceSharing));
  }

  /** A target without sharing of MIG slices; {@code replicas} time-sliced when MIG is off. */
  public GpuTarget(
      GpuIndex gpu, boolean migEnabled, List<GpuInstanceSpec> gpuInstances, int replicas) {
    this(gpu, migEnabled, gpuInstances, new Sharing.TimeSliced(replicas), Map.of());
  }

  /** MIG enabled with these GPU instances. */
  public static GpuTarget mig(GpuIndex gpu, List<GpuInstanceSpec> gpuInstances) {
    return new GpuTarget(gpu, true, gpuInstances, 1);
  }

  /** MIG enabled with these GPU instances, the slices of some profiles shared. */
  public static GpuTarget mig(
      GpuIndex gpu, List<GpuInstanceSpec> gpuInstances, Map<ProfileName, Sharing> sliceSharing) {
    return new GpuTarget(gpu, true, gpuInstances, new Sharing.TimeSliced(1), sliceSharing);
  }

  /** MIG disabled, the whole GPU time-sliced into {@code replicas}. */
  public static GpuTarget whole(GpuIndex gpu, int replicas) {
    return new GpuTarget(gpu, false, List.of(), replicas);
  }

  /** MIG disabled, the whole GPU shared this way. */
  public static GpuTarget whole(GpuIndex gpu, Sharing sharing) {
    return new GpuTarget(gpu, false, List.of(), sharing, Map.of());
  }

  /** How many replicas the GPU is advertised as while its MIG mode is off. */
  public int replicas() {
    return sharing.replicas();
  }
}
