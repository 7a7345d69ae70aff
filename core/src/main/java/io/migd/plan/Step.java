package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;

/** One change to one GPU; the {@code Executor} turns each into NVML calls. */
public sealed interface Step {
  /** The GPU it changes. */
  GpuIndex gpu();

  /** Turns MIG mode on ({@code nvmlDeviceSetMigMode}); the GPU must hold no process. */
  record EnableMig(GpuIndex gpu) implements Step {}

  /** Turns MIG mode off; every instance is gone by then. */
  record DisableMig(GpuIndex gpu) implements Step {}

  /** Destroys a compute instance that nobody uses. */
  record DestroyComputeInstance(GpuIndex gpu, int giId, int ciId) implements Step {}

  /** Destroys a GPU instance whose compute instances are already gone. */
  record DestroyGpuInstance(GpuIndex gpu, int giId) implements Step {}

  /** Creates a GPU instance of a profile at an exact placement (memory slices). */
  record CreateGpuInstance(GpuIndex gpu, ProfileName profile, int profileId, Placement placement)
      implements Step {}

  /**
   * Creates a compute instance inside the GPU instance at {@code giPlacement} (which may have been
   * created earlier in the same plan, so it is named by placement, not id), at an exact placement
   * in compute slices of that GPU instance.
   */
  record CreateComputeInstance(
      GpuIndex gpu, Placement giPlacement, ProfileName profile, int profileId, Placement placement)
      implements Step {}
}
