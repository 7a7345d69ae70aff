package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimDevice;
import io.migd.sharing.ClientEdits;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One device of a prepared claim, as its CDI spec needs it: the device as it exists (a whole GPU or
 * a made MIG device, never a placement not made yet), the minor number of its GPU ({@code
 * /dev/nvidia<minor>}, the parent of a MIG device), and what its sharing adds (an MPS daemon's pipe
 * and shm).
 */
public record CdiDevice(
    ClaimDevice device, int gpuMinor, ClientEdits sharing, Optional<String> shareId) {
  /** The CDI vendor and class of migd's per-claim specs. */
  public static final String CLAIM_KIND = "k8s.migd.io/claim";

  /** Checks the device exists and the minor number. */
  public CdiDevice {
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(sharing, "sharing");
    Objects.requireNonNull(shareId, "shareId");
    if (device instanceof ClaimDevice.Planned) {
      throw new IllegalArgumentException(
          device.name() + ": a placement whose instance is not made has no CDI device");
    }
    if (gpuMinor < 0) {
      throw new IllegalArgumentException(
          device.name() + ": GPU minor " + gpuMinor + " is negative");
    }
  }

  /** A device not shared. */
  public CdiDevice(ClaimDevice device, int gpuMinor) {
    this(device, gpuMinor, ClientEdits.NONE);
  }

  /** A device the claim holds alone, its sharing as {@code sharing} says. */
  public CdiDevice(ClaimDevice device, int gpuMinor, ClientEdits sharing) {
    this(device, gpuMinor, sharing, Optional.empty());
  }

  /** A whole GPU. */
  public static CdiDevice wholeGpu(String deviceName, int gpuMinor, String gpuUuid) {
    return new CdiDevice(
        new ClaimDevice.Whole(deviceName, new GpuIndex(gpuMinor), gpuUuid), gpuMinor);
  }

  /** A MIG device of GPU instance {@code giId}, compute instance {@code ciId}. */
  public static CdiDevice mig(String deviceName, int gpuMinor, String gpuUuid, int giId, int ciId) {
    return new CdiDevice(
        new ClaimDevice.Made(
            deviceName,
            new GpuIndex(gpuMinor),
            gpuUuid,
            new ClaimDevice.MigInstance(giId, ciId, "")),
        gpuMinor);
  }

  /** The pool's device name, {@code gpu-0} or {@code gpu-0-mig-1g10gb-19-0}. */
  public String deviceName() {
    return device.name();
  }

  /**
   * The CDI device name in the claim's spec: {@code <claim UID>-<device name>}, and {@code
   * -<shareID>} for a share (two shares of one device on a node must not clash).
   */
  public String cdiName(String claimUid) {
    return claimUid + "-" + device.name() + shareId.map(id -> "-" + id).orElse("");
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
