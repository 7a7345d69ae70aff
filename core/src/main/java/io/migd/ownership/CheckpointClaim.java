package io.migd.ownership;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * How the claim came by a device. A claim owns what it was given as {@link #STATIC} or {@link
   * #CREATED}; the owner of an instance is every claim that owns it (one today; claims sharing an
   * instance, DESIGN section 14, each own it).
   */
  public enum Kind {
    /** Handed out as it is: a whole GPU, or a MIG slice of a static GPU. The claim owns it. */
    STATIC,
    /**
     * Made for the claim on a dynamic GPU: a placement created (or an idle instance reused), or the
     * GPU handed out whole after its MIG mode was disabled. The claim owns it.
     */
    CREATED,
    /** An {@code adminAccess} result: answered, never owned, never created or destroyed. */
    ADMIN_ACCESS;

    /** Whether the claim owns the device (it is in use while the claim is prepared). */
    public boolean owned() {
      return this != ADMIN_ACCESS;
    }
  }

  /**
   * A share of a device that allows multiple allocations (DESIGN section 14, Fractions): the
   * scheduler's {@code shareID} and what the share consumed, which MPS holds its clients to.
   *
   * @param memoryBytes the share's {@code memory}
   * @param computePercent the share's {@code compute}, percent of the device's multiprocessors
   */
  public record Share(String shareId, long memoryBytes, int computePercent) {
    /** Checks the share ID is there and the amounts are positive. */
    public Share {
      Objects.requireNonNull(shareId);
      if (memoryBytes <= 0 || computePercent <= 0 || computePercent > 100) {
        throw new IllegalArgumentException(
            "share "
                + shareId
                + ": memory "
                + memoryBytes
                + " and compute "
                + computePercent
                + " must be positive, compute at most 100");
      }
    }

    /** The memory in whole MiB, rounded down (a share's memory is a multiple of 256 MiB). */
    public long memoryMib() {
      return memoryBytes >> 20;
    }
  }

  /**
   * One device of the claim.
   *
   * @param device the device, and what exists of it
   * @param requestNames the claim's requests it serves
   * @param cdiDeviceIds its CDI device IDs, empty until the CDI spec is written
   * @param deviceClass the DeviceClass of the request it serves, empty when not known
   */
  public record Device(
      ClaimDevice device,
      Kind kind,
      List<String> requestNames,
      List<String> cdiDeviceIds,
      String deviceClass,
      Optional<Share> share) {
    /** Copies the lists. */
    public Device {
      Objects.requireNonNull(device);
      Objects.requireNonNull(kind);
      Objects.requireNonNull(deviceClass);
      Objects.requireNonNull(share);
      requestNames = List.copyOf(requestNames);
      cdiDeviceIds = List.copyOf(cdiDeviceIds);
    }

    /** A device the claim holds alone (not a share). */
    public Device(
        ClaimDevice device,
        Kind kind,
        List<String> requestNames,
        List<String> cdiDeviceIds,
        String deviceClass) {
      this(device, kind, requestNames, cdiDeviceIds, deviceClass, Optional.empty());
    }

    /** The device's name in the pool. */
    public String name() {
      return device.name();
    }

    /** The GPU it is on. */
    public GpuIndex gpu() {
      return device.gpu();
    }

    /** This device with what exists of it now. */
    public Device with(ClaimDevice now) {
      return new Device(now, kind, requestNames, cdiDeviceIds, deviceClass, share);
    }

    /** This device with its CDI device IDs. */
    public Device withCdi(List<String> ids) {
      return new Device(device, kind, requestNames, ids, deviceClass, share);
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
