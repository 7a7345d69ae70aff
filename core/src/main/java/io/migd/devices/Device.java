package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.util.Objects;

/**
 * One device the kubelet sees: a whole GPU, a MIG slice, or a replica of either. {@code id} is the
 * GPU's or MIG device's UUID, or {@code <parent UUID>::<n>} for a replica; {@code parentUuid} is
 * the UUID of what the device runs on. {@code gpuInstanceId} is {@link Usage#WHOLE_GPU} and {@code
 * computeInstanceId} {@link Usage#ALL_COMPUTE_INSTANCES} for a whole GPU.
 */
public record Device(
    String id,
    String parentUuid,
    GpuIndex gpu,
    int gpuInstanceId,
    int computeInstanceId,
    boolean healthy) {
  /** Checks the references are present. */
  public Device {
    Objects.requireNonNull(id);
    Objects.requireNonNull(parentUuid);
    Objects.requireNonNull(gpu);
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
        : new Device(id, parentUuid, gpu, gpuInstanceId, computeInstanceId, isHealthy);
  }

  /** The parent UUID of a device ID: the part before {@code ::}, or the ID itself. */
  public static String parentOf(String id) {
    int cut = id.indexOf("::");
    return cut < 0 ? id : id.substring(0, cut);
  }
}
