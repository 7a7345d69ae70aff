package io.migd.claims;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.Objects;

/**
 * A claim as the DRA checkpoint holds it: which devices it was given or is being given.
 *
 * @param completed whether its prepare completed ({@code prepareCompleted}); false while it runs
 *     ({@code prepareStarted}: a dynamic device's instance may be half made, or not yet made)
 * @param pods the pods it is reserved for, as read at its prepare or the last claim check
 */
public record CheckpointClaim(
    ClaimKey claim, boolean completed, List<Device> devices, List<ReservedPod> pods) {
  /** Copies the lists. */
  public CheckpointClaim {
    Objects.requireNonNull(claim);
    devices = List.copyOf(devices);
    pods = List.copyOf(pods);
  }

  /** A claim whose pods are not known. */
  public CheckpointClaim(ClaimKey claim, boolean completed, List<Device> devices) {
    this(claim, completed, devices, List.of());
  }

  /** How the claim came by a device. */
  public enum Kind {
    /** Handed out as it is: a whole GPU, or a MIG slice of a static GPU. The claim owns it. */
    STATIC,
    /** A dynamic placement migd creates (or reuses) for the claim. The claim owns the instance. */
    CREATED,
    /** An {@code adminAccess} result: answered, never owned, never created or destroyed. */
    ADMIN_ACCESS
  }

  /**
   * One device of the claim.
   *
   * @param name the device's name in the pool
   * @param giProfileId the GPU-instance profile of a MIG device, -1 for a whole GPU
   * @param gpuInstanceId the GPU instance, -1 for a whole GPU or one not made yet
   * @param computeInstanceId the compute instance, -1 for a whole GPU or one not made yet
   * @param placementStart the GPU instance's placement start, -1 for a whole GPU
   * @param placementSize the GPU instance's placement size, -1 for a whole GPU
   * @param migUuid the MIG device's UUID, empty for a whole GPU or one not made yet
   * @param requestNames the claim's requests it serves
   * @param cdiDeviceIds its CDI device IDs, empty until the CDI spec is written
   * @param deviceClass the DeviceClass of the request it serves, empty when not known
   */
  public record Device(
      String name,
      Kind kind,
      GpuIndex gpu,
      String gpuUuid,
      int giProfileId,
      int gpuInstanceId,
      int computeInstanceId,
      int placementStart,
      int placementSize,
      String migUuid,
      List<String> requestNames,
      List<String> cdiDeviceIds,
      String deviceClass) {
    /** Copies the lists. */
    public Device {
      Objects.requireNonNull(name);
      Objects.requireNonNull(kind);
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
      Objects.requireNonNull(migUuid);
      Objects.requireNonNull(deviceClass);
      requestNames = List.copyOf(requestNames);
      cdiDeviceIds = List.copyOf(cdiDeviceIds);
    }

    /** A device whose request's DeviceClass is not known. */
    public Device(
        String name,
        Kind kind,
        GpuIndex gpu,
        String gpuUuid,
        int giProfileId,
        int gpuInstanceId,
        int computeInstanceId,
        int placementStart,
        int placementSize,
        String migUuid,
        List<String> requestNames,
        List<String> cdiDeviceIds) {
      this(
          name,
          kind,
          gpu,
          gpuUuid,
          giProfileId,
          gpuInstanceId,
          computeInstanceId,
          placementStart,
          placementSize,
          migUuid,
          requestNames,
          cdiDeviceIds,
          "");
    }

    /** Whether it is a whole GPU. */
    public boolean wholeGpu() {
      return gpuInstanceId < 0 && placementStart < 0;
    }

    /** Whether the placement {@code start}/{@code size} shares a memory slice with this one. */
    public boolean overlaps(int start, int size) {
      return placementStart >= 0
          && start < placementStart + placementSize
          && placementStart < start + size;
    }

    /** This device with its instance made. */
    public Device made(int giId, int ciId, String uuid) {
      return new Device(
          name,
          kind,
          gpu,
          gpuUuid,
          giProfileId,
          giId,
          ciId,
          placementStart,
          placementSize,
          uuid,
          requestNames,
          cdiDeviceIds,
          deviceClass);
    }

    /** This device with its CDI device IDs. */
    public Device withCdi(List<String> ids) {
      return new Device(
          name,
          kind,
          gpu,
          gpuUuid,
          giProfileId,
          gpuInstanceId,
          computeInstanceId,
          placementStart,
          placementSize,
          migUuid,
          requestNames,
          ids,
          deviceClass);
    }
  }

  /** The claim with these devices, completed or not. */
  public CheckpointClaim with(boolean done, List<Device> now) {
    return new CheckpointClaim(claim, done, now, pods);
  }

  /** The claim reserved for these pods now. */
  public CheckpointClaim withPods(List<ReservedPod> now) {
    return new CheckpointClaim(claim, completed, devices, now);
  }
}
