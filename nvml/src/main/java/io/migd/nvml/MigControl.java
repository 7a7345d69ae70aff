package io.migd.nvml;

/**
 * Changes the MIG partition of a GPU: its MIG mode, and GPU and compute instances created at exact
 * placements (migd always chooses the placement, so every layout that fits is found).
 */
public interface MigControl {

  /**
   * Asks for a MIG mode and returns the activation status: {@link NvmlReturn#SUCCESS} when the mode
   * is in force now, {@link NvmlReturn#IN_USE} when something holds the GPU (the mode stays
   * pending), {@link NvmlReturn#RESET_REQUIRED} when only a reboot can apply it.
   */
  NvmlReturn setMigMode(DeviceHandle device, boolean enabled);

  /** Creates a GPU instance at an exact placement. */
  GpuInstanceHandle createGpuInstance(
      DeviceHandle device, int profileId, InstancePlacement placement);

  /** Destroys a GPU instance ({@code IN_USE} while it has compute instances or processes). */
  void destroyGpuInstance(GpuInstanceHandle gpuInstance);

  /** Creates a compute instance at an exact placement inside its GPU instance. */
  ComputeInstanceHandle createComputeInstance(
      GpuInstanceHandle gpuInstance, int profileId, InstancePlacement placement);

  /** Destroys a compute instance ({@code IN_USE} while processes run on it). */
  void destroyComputeInstance(ComputeInstanceHandle computeInstance);

  /**
   * Sets the compute mode of a whole GPU (MPS and time-slicing of DRA claims change it; it is not
   * MIG state, but it is the same kind of write).
   */
  void setComputeMode(DeviceHandle device, ComputeMode mode);
}
