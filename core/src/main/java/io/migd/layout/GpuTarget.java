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
 * ({@code sliceSharing}; a profile absent there is not shared), and whether the GPU is {@code
 * dynamic} (DRA mode, DESIGN section 12: MIG enabled, every profile published at every placement,
 * instances made only when claims are prepared; the surfaces read this, never re-derive it), and
 * whether its devices are also published as shareable twins ({@code shares}, DRA mode, DESIGN
 * section 14: a dynamic GPU, or a whole GPU that its sharing leaves unshared).
 */
public record GpuTarget(
    GpuIndex gpu,
    boolean migEnabled,
    List<GpuInstanceSpec> gpuInstances,
    Sharing sharing,
    Map<ProfileName, Sharing> sliceSharing,
    boolean dynamic,
    boolean shares) {
  /**
   * Checks that MIG instances and their sharing are asked for only with MIG enabled, that a dynamic
   * GPU has MIG enabled, no instances and no sharing, and that a GPU with shares is dynamic or
   * whole and not shared by replicas.
   */
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
    if (dynamic
        && (!migEnabled
            || !gpuInstances.isEmpty()
            || !sliceSharing.isEmpty()
            || !sharing.equals(new Sharing.TimeSliced(1)))) {
      throw new IllegalArgumentException(
          "GPU " + gpu + ": a dynamic GPU has MIG enabled, no instances asked for and no sharing");
    }
    if (shares
        && ((migEnabled && !dynamic)
            || !sliceSharing.isEmpty()
            || !sharing.equals(new Sharing.TimeSliced(1)))) {
      throw new IllegalArgumentException(
          "GPU " + gpu + ": shares need a dynamic GPU or a whole GPU without replicas");
    }
  }

  /** A target without shares. */
  public GpuTarget(
      GpuIndex gpu,
      boolean migEnabled,
      List<GpuInstanceSpec> gpuInstances,
      Sharing sharing,
      Map<ProfileName, Sharing> sliceSharing,
      boolean dynamic) {
    this(gpu, migEnabled, gpuInstances, sharing, sliceSharing, dynamic, false);
  }

  /** A static target (not dynamic). */
  public GpuTarget(
      GpuIndex gpu,
      boolean migEnabled,
      List<GpuInstanceSpec> gpuInstances,
      Sharing sharing,
      Map<ProfileName, Sharing> sliceSharing) {
    this(gpu, migEnabled, gpuInstances, sharing, sliceSharing, false);
  }

  /** A dynamic GPU: MIG enabled, its instances made and removed by prepared claims. */
  public static GpuTarget dynamic(GpuIndex gpu) {
    return dynamic(gpu, false);
  }

  /** A dynamic GPU, its devices also published as shareable twins when {@code shares} is true. */
  public static GpuTarget dynamic(GpuIndex gpu, boolean shares) {
    return new GpuTarget(gpu, true, List.of(), new Sharing.TimeSliced(1), Map.of(), true, shares);
  }

  /** MIG disabled, the whole GPU unshared by replicas and published with a shareable twin. */
  public static GpuTarget sharedWhole(GpuIndex gpu) {
    return new GpuTarget(gpu, false, List.of(), new Sharing.TimeSliced(1), Map.of(), false, true);
  }

  /**
   * Whether the target shares the GPU or any of its slices by replicas: time-slicing into more than
   * one replica, MPS, or slice sharing (none of which DRA mode offers; its {@link #shares} are
   * another thing).
   */
  public boolean replicated() {
    return !sliceSharing.isEmpty() || !sharing.equals(new Sharing.TimeSliced(1));
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
