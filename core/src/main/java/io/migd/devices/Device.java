package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.profiles.Sharing;
import java.util.Objects;

/**
 * One device the kubelet sees: a whole GPU, a MIG slice, or a replica of either. {@code id} is the
 * GPU's or MIG device's UUID, or {@code <parent UUID>::<n>} for a replica; {@code parentUuid} is
 * the UUID of what the device runs on. {@code gpuInstanceId} is {@link Usage#WHOLE_GPU} and {@code
 * computeInstanceId} {@link Usage#ALL_COMPUTE_INSTANCES} for a whole GPU. {@code sharing} is how
 * its parent is shared: time-sliced into 1 replica means not shared.
 */
public record Device(
    String id,
    String parentUuid,
    GpuIndex gpu,
    int gpuInstanceId,
    int computeInstanceId,
    boolean healthy,
    Sharing sharing) {
  /** Not shared. */
  public static final Sharing UNSHARED = new Sharing.TimeSliced(1);

  /** Checks the references are present. */
  public Device {
    Objects.requireNonNull(id);
    Objects.requireNonNull(parentUuid);
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(sharing);
  }

  /** A device whose parent is not shared. */
  public Device(
      String id,
      String parentUuid,
      GpuIndex gpu,
      int gpuInstanceId,
      int computeInstanceId,
      boolean healthy) {
    this(id, parentUuid, gpu, gpuInstanceId, computeInstanceId, healthy, UNSHARED);
  }

  /** Whether its parent is shared: more than one replica, or served by MPS. */
  public boolean isShared() {
    return sharing instanceof Sharing.Mps || sharing.replicas() > 1;
  }

  /** Whether its parent is shared by an MPS control daemon. */
  public boolean isMps() {
    return sharing instanceof Sharing.Mps;
  }

  /** Whether this is a MIG slice (or a replica of one). */
  public boolean isMigSlice() {
    return gpuInstanceId != Usage.WHOLE_GPU;
  }

  /** Whether this is one of several replicas of its parent. */
  public boolean isReplica() {
    return !id.equals(parentUuid);
  }

  /** The same device, healthy or not. */
  public Device withHealthy(boolean isHealthy) {
    return isHealthy == healthy
        ? this
        : new Device(id, parentUuid, gpu, gpuInstanceId, computeInstanceId, isHealthy, sharing);
  }

  /** The parent UUID of a device ID: the part before {@code ::}, or the ID itself. */
  public static String parentOf(String id) {
    int cut = id.indexOf("::");
    return cut < 0 ? id : id.substring(0, cut);
  }
}
