package io.migd.claims;

import java.util.Objects;

/**
 * One device of a claim's CDI spec.
 *
 * @param deviceName the device's name in the pool
 * @param gpuMinor the parent GPU's minor number, {@code /dev/nvidia<minor>}
 * @param gpuUuid the parent GPU's UUID
 * @param gpuInstanceId the GPU instance of a MIG device, -1 for a whole GPU
 * @param computeInstanceId the compute instance of a MIG device, -1 for a whole GPU
 */
public record CdiDevice(
    String deviceName, int gpuMinor, String gpuUuid, int gpuInstanceId, int computeInstanceId) {
  /** Checks every part is there. */
  public CdiDevice {
    Objects.requireNonNull(deviceName);
    Objects.requireNonNull(gpuUuid);
  }
}
