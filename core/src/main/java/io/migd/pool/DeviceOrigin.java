package io.migd.pool;

import io.migd.layout.GpuIndex;
import java.util.Objects;

/**
 * What a published device is on the node, so a prepare knows what to hand out or create: a whole
 * GPU, a MIG slice that exists (static GPUs, and dynamic placements once prepared), or a placement
 * of a dynamic GPU that exists only once a claim is prepared.
 */
public sealed interface DeviceOrigin {
  /** The GPU the device is on. */
  GpuIndex gpu();

  /** The parent GPU's UUID. */
  String gpuUuid();

  /**
   * A whole GPU.
   *
   * @param dynamic whether the GPU is dynamic (preparing it on Hopper and later turns MIG off)
   */
  record WholeGpu(GpuIndex gpu, String gpuUuid, boolean dynamic) implements DeviceOrigin {
    /** Checks every part is there. */
    public WholeGpu {
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
    }
  }

  /** A MIG slice (GPU instance and compute instance) that exists on a static GPU. */
  record StaticSlice(
      GpuIndex gpu, String gpuUuid, int gpuInstanceId, int computeInstanceId, String migUuid)
      implements DeviceOrigin {
    /** Checks every part is there. */
    public StaticSlice {
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
      Objects.requireNonNull(migUuid);
    }
  }

  /**
   * A placement of a dynamic GPU: the GPU instance of {@code giProfileId} at {@code start} (size
   * {@code size} memory slices), with one compute instance spanning it, made when a claim is
   * prepared.
   *
   * @param profile the profile's name as NVML gives it, {@code 1g.10gb}
   */
  record DynamicPlacement(
      GpuIndex gpu, String gpuUuid, String profile, int giProfileId, int start, int size)
      implements DeviceOrigin {
    /** Checks every part is there. */
    public DynamicPlacement {
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
      Objects.requireNonNull(profile);
      if (start < 0 || size <= 0) {
        throw new IllegalArgumentException("a placement needs start >= 0 and size > 0");
      }
    }
  }
}
