package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.profiles.Sharing;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One device the kubelet sees: a whole GPU, a MIG slice, or a replica of either. {@code id} is the
 * GPU's or MIG device's UUID, or {@code <parent UUID>::<n>} for a replica; {@code parentUuid} is
 * the UUID of what the device runs on. {@code gpuInstanceId} is {@link Usage#WHOLE_GPU} and {@code
 * computeInstanceId} {@link Usage#ALL_COMPUTE_INSTANCES} for a whole GPU. {@code sharing} is how
 * its parent is shared: time-sliced into 1 replica means not shared. {@code numaNode} is the NUMA
 * node of its GPU (a slice's and a replica's are their GPU's), {@link #NO_NUMA_NODE} when sysfs
 * does not say; the kubelet's Topology Manager aligns CPUs with it.
 */
public record Device(
    String id,
    String parentUuid,
    GpuIndex gpu,
    int gpuInstanceId,
    int computeInstanceId,
    boolean healthy,
    Sharing sharing,
    int numaNode) {
  /** Not shared. */
  public static final Sharing UNSHARED = new Sharing.TimeSliced(1);

  /** The NUMA node of a device whose GPU's node is unknown (sysfs says -1 or nothing). */
  public static final int NO_NUMA_NODE = -1;

  /** Checks the references are present; any negative NUMA node is {@link #NO_NUMA_NODE}. */
  public Device {
    Objects.requireNonNull(id);
    Objects.requireNonNull(parentUuid);
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(sharing);
    numaNode = Math.max(numaNode, NO_NUMA_NODE);
  }

  /** A device whose NUMA node is unknown. */
  public Device(
      String id,
      String parentUuid,
      GpuIndex gpu,
      int gpuInstanceId,
      int computeInstanceId,
      boolean healthy,
      Sharing sharing) {
    this(id, parentUuid, gpu, gpuInstanceId, computeInstanceId, healthy, sharing, NO_NUMA_NODE);
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

  /** The NUMA node of its GPU; empty when unknown. */
  public OptionalInt numa() {
    return numaNode == NO_NUMA_NODE ? OptionalInt.empty() : OptionalInt.of(numaNode);
  }

  /** Whether its parent is shared: more than one replica, or served by MPS. */
  public boolean isShared() {
    return sharing instanceof Sharing.Mps || sharing.replicas() > 1;
  }

  /** Whether its parent is shared by an MPS control daemon. */
  public boolean isMps() {
    return sharing instanceof Sharing.Mps;
  }

  /**
   * Whether a container may get only this one replica of its resource (NVIDIA's {@code
   * failRequestsGreaterThanOne}).
   */
  public boolean oneReplicaPerRequest() {
    return isShared() && sharing.offer().oneReplicaPerRequest();
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
        : new Device(
            id, parentUuid, gpu, gpuInstanceId, computeInstanceId, isHealthy, sharing, numaNode);
  }

  /** The parent UUID of a device ID: the part before {@code ::}, or the ID itself. */
  public static String parentOf(String id) {
    int cut = id.indexOf("::");
    return cut < 0 ? id : id.substring(0, cut);
  }
}
