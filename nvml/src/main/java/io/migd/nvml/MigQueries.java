package io.migd.nvml;

import java.util.List;

/**
 * The MIG partition of a GPU as NVML reports it: the profiles it offers, where they can be placed,
 * and the GPU and compute instances that exist. Reads only; {@link MigControl} changes them.
 */
public interface MigQueries {

  /**
   * Every GPU-instance profile the GPU offers, in index order. Uses the oldest form of the call
   * when MIG is disabled or the driver lacks the versioned one.
   */
  List<GpuInstanceProfile> gpuInstanceProfiles(DeviceHandle device);

  /** A GPU-instance profile by profile id (MIG enabled). */
  GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId);

  /** Every legal placement of a profile, free or not. */
  List<InstancePlacement> gpuInstancePossiblePlacements(DeviceHandle device, int profileId);

  /** Existing GPU instances of one profile. */
  List<GpuInstanceHandle> gpuInstances(DeviceHandle device, int profileId);

  /** A GPU instance by its id. */
  GpuInstanceHandle gpuInstanceById(DeviceHandle device, int id);

  /** What a GPU instance is. */
  GpuInstanceInfo gpuInstanceInfo(GpuInstanceHandle gpuInstance);

  /** Every compute-instance profile a GPU instance offers, in index order. */
  List<ComputeInstanceProfile> computeInstanceProfiles(GpuInstanceHandle gpuInstance);

  /** Every legal placement of a compute-instance profile inside the GPU instance. */
  List<InstancePlacement> computeInstancePossiblePlacements(
      GpuInstanceHandle gpuInstance, int profileId);

  /** Existing compute instances of one profile in a GPU instance. */
  List<ComputeInstanceHandle> computeInstances(GpuInstanceHandle gpuInstance, int profileId);

  /** A compute instance by id within its GPU instance. */
  ComputeInstanceHandle computeInstanceById(GpuInstanceHandle gpuInstance, int id);

  /** What a compute instance is. */
  ComputeInstanceInfo computeInstanceInfo(ComputeInstanceHandle computeInstance);
}
