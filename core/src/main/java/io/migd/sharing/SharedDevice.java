package io.migd.sharing;

import io.migd.layout.GpuIndex;
import java.util.Objects;

/**
 * A prepared device of a claim with the sharing its configuration asks for.
 *
 * @param name the pool's device name
 * @param gpu the GPU it is on
 * @param uuid its UUID: the GPU's, or the MIG device's
 * @param wholeGpu whether it is a whole GPU
 */
public record SharedDevice(
    String name, GpuIndex gpu, String uuid, boolean wholeGpu, DeviceSharing sharing) {
  /** Checks every part is there. */
  public SharedDevice {
    Objects.requireNonNull(name);
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(uuid);
    Objects.requireNonNull(sharing);
  }
}
