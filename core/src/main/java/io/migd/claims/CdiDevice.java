package io.migd.claims;

import java.util.List;
import java.util.Objects;

/**
 * One device of a prepared claim, as its CDI spec needs it.
 *
 * @param deviceName the pool's device name, {@code gpu-0} or {@code gpu-0-mig-1g10gb-19-0}
 * @param gpuMinor the minor number of the GPU ({@code /dev/nvidia<minor>}), the parent of a MIG
 *     device
 * @param gpuUuid the UUID of that GPU, {@code GPU-...}, never a MIG UUID
 * @param gpuInstanceId the GPU-instance id of a MIG device, -1 for a whole GPU
 * @param computeInstanceId the compute-instance id of a MIG device, -1 for a whole GPU
 */
public record CdiDevice(
    String deviceName, int gpuMinor, String gpuUuid, int gpuInstanceId, int computeInstanceId) {
  /** The CDI vendor and class of migd's per-claim specs. */
  public static final String CLAIM_KIND = "k8s.migd.io/claim";

  /** Validates the ids: both -1 (a whole GPU) or both at least 0 (a MIG device). */
  public CdiDevice {
    Objects.requireNonNull(deviceName, "deviceName");
    Objects.requireNonNull(gpuUuid, "gpuUuid");
    if (gpuMinor < 0) {
      throw new IllegalArgumentException(deviceName + ": GPU minor " + gpuMinor + " is negative");
    }
    boolean whole = gpuInstanceId == -1 && computeInstanceId == -1;
    if (!whole && (gpuInstanceId < 0 || computeInstanceId < 0)) {
      throw new IllegalArgumentException(
          deviceName
              + ": GPU-instance id "
              + gpuInstanceId
              + " and compute-instance id "
              + computeInstanceId
              + " must both be -1 (a whole GPU) or both at least 0");
    }
  }

  /** A whole GPU. */
  public static CdiDevice wholeGpu(String deviceName, int gpuMinor, String gpuUuid) {
    return new CdiDevice(deviceName, gpuMinor, gpuUuid, -1, -1);
  }

  /** Whether this is a MIG device (it has GPU- and compute-instance ids). */
  public boolean isMig() {
    return gpuInstanceId >= 0;
  }

  /** The CDI device name in the claim's spec: {@code <claim UID>-<device name>}. */
  public String cdiName(String claimUid) {
    return claimUid + "-" + deviceName;
  }

  /**
   * The CDI IDs the kubelet gets for this device: {@code k8s.migd.io/claim=<claim UID>-<device
   * name>} only, whose spec holds its device nodes and the driver's libraries and hooks. Never an
   * {@code nvidia.com/*} name: another spec (the toolkit's, the GPU Operator's) may define it too,
   * and a name two specs define does not resolve.
   */
  public List<String> cdiIds(String claimUid) {
    return List.of(CLAIM_KIND + "=" + cdiName(claimUid));
  }
}
