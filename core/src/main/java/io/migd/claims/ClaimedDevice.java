package io.migd.claims;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.Objects;

/**
 * A device a prepared claim owns, as the checkpoint records it.
 *
 * @param claimUid the owning claim's UID
 * @param claimNamespace the owning claim's namespace
 * @param claimName the owning claim's name
 * @param deviceName the device's name in the pool
 * @param gpu the GPU it is on
 * @param gpuUuid the GPU's UUID
 * @param gpuInstanceId the GPU instance, or -1 for a whole GPU
 * @param computeInstanceId the compute instance, or -1 for a whole GPU
 * @param placementStart the GPU instance's placement start, or -1 for a whole GPU
 * @param placementSize the GPU instance's placement size, or -1 for a whole GPU
 * @param migUuid the MIG device's UUID, empty for a whole GPU
 * @param completed whether its prepare completed (false: started, the instance may be half-made)
 * @param created whether the claim's prepare made (or reused) the instance on a dynamic GPU, as
 *     against a static device handed out as it was: a GPU with created devices that is static now
 *     is turning from dynamic to static (DESIGN section 12), also after a restart
 * @param deviceClass the DeviceClass of the claim's request it serves, empty when not known
 * @param pods the pods the claim is reserved for, with the containers that reference it
 */
public record ClaimedDevice(
    String claimUid,
    String claimNamespace,
    String claimName,
    String deviceName,
    GpuIndex gpu,
    String gpuUuid,
    int gpuInstanceId,
    int computeInstanceId,
    int placementStart,
    int placementSize,
    String migUuid,
    boolean completed,
    boolean created,
    String deviceClass,
    List<ReservedPod> pods) {
  /** Checks every part is there. */
  public ClaimedDevice {
    Objects.requireNonNull(deviceClass);
    pods = List.copyOf(pods);
    Objects.requireNonNull(claimUid);
    Objects.requireNonNull(claimNamespace);
    Objects.requireNonNull(claimName);
    Objects.requireNonNull(deviceName);
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(gpuUuid);
    Objects.requireNonNull(migUuid);
  }

  /** A static device (not created for the claim) whose DeviceClass and pods are not known. */
  public ClaimedDevice(
      String claimUid,
      String claimNamespace,
      String claimName,
      String deviceName,
      GpuIndex gpu,
      String gpuUuid,
      int gpuInstanceId,
      int computeInstanceId,
      int placementStart,
      int placementSize,
      String migUuid,
      boolean completed) {
    this(
        claimUid,
        claimNamespace,
        claimName,
        deviceName,
        gpu,
        gpuUuid,
        gpuInstanceId,
        computeInstanceId,
        placementStart,
        placementSize,
        migUuid,
        completed,
        false,
        "",
        List.of());
  }

  /** The device's UUID: the MIG device's, or the GPU's for a whole GPU. */
  public String deviceUuid() {
    return migUuid.isEmpty() ? gpuUuid : migUuid;
  }

  /** Whether it is a whole GPU. */
  public boolean wholeGpu() {
    return gpuInstanceId < 0;
  }
}
