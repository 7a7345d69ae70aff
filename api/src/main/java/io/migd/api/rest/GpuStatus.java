package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One GPU as NVML shows it at the time of the call ({@code GET /api/v1/gpus}).
 *
 * @param index the NVML index
 * @param uuid the GPU's UUID
 * @param model the name NVML reports
 * @param pciBusId the PCI bus id
 * @param pciDeviceId the PCI device id, {@code 0xDDDDVVVV}
 * @param pciSubsystemId the PCI subsystem id, {@code 0xSSSSVVVV}
 * @param memoryMiB total memory
 * @param migCapable whether the GPU has MIG
 * @param migMode the current and pending MIG mode
 * @param slices the MIG devices, one per compute instance
 * @param replicas time-sliced replicas the intent gives the GPU (1 = the whole GPU)
 * @param error set, and every field but {@code index} left out, when NVML could not observe this
 *     GPU: the call and its return code; the other GPUs are answered as usual
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GpuStatus(
    int index,
    String uuid,
    String model,
    String pciBusId,
    String pciDeviceId,
    String pciSubsystemId,
    Long memoryMiB,
    Boolean migCapable,
    MigMode migMode,
    List<Slice> slices,
    Integer replicas,
    String error) {
  /** Copies the list. */
  public GpuStatus {
    slices = slices == null ? null : List.copyOf(slices);
  }

  /** A GPU NVML could not observe: its index and the call that failed, nothing else. */
  public static GpuStatus unobservable(int index, String error) {
    return new GpuStatus(index, null, null, null, null, null, null, null, null, null, null, error);
  }

  /**
   * The MIG mode; a change stays pending until the GPU is reset.
   *
   * @param current the mode in effect
   * @param pending the mode after the next reset
   */
  public record MigMode(boolean current, boolean pending) {}

  /**
   * One MIG device: a compute instance in its GPU instance.
   *
   * @param gpuInstanceId the GPU instance's id
   * @param computeInstanceId the compute instance's id
   * @param profile the MIG profile ({@code 1c.3g.20gb} for a compute instance smaller than its GPU
   *     instance)
   * @param placement the GPU instance's placement in memory slices
   * @param uuid the MIG device's UUID
   * @param inUse whether a pod, a process or a prepared claim holds it
   * @param pods the pods (or processes) that hold it
   * @param claim in dra mode, the prepared ResourceClaim that owns it; absent otherwise
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Slice(
      int gpuInstanceId,
      int computeInstanceId,
      String profile,
      Placement placement,
      String uuid,
      boolean inUse,
      List<String> pods,
      Claim claim) {
    /** Copies the list. */
    public Slice {
      pods = List.copyOf(pods);
    }

    /** A slice no claim owns. */
    public Slice(
        int gpuInstanceId,
        int computeInstanceId,
        String profile,
        Placement placement,
        String uuid,
        boolean inUse,
        List<String> pods) {
      this(gpuInstanceId, computeInstanceId, profile, placement, uuid, inUse, pods, null);
    }
  }

  /**
   * The ResourceClaim a slice was prepared for (dra mode).
   *
   * @param device the device's name in the node's ResourceSlice
   * @param prepared false while its prepare has started and not completed
   * @param pods the pods the claim is reserved for, as read when it was prepared or at the last
   *     claim check
   */
  public record Claim(
      String namespace,
      String name,
      String uid,
      String device,
      boolean prepared,
      List<ReservedPod> pods) {
    /** Copies the list. */
    public Claim {
      pods = List.copyOf(pods);
    }

    /** A claim whose pods are not known. */
    public Claim(String namespace, String name, String uid, String device, boolean prepared) {
      this(namespace, name, uid, device, prepared, List.of());
    }
  }

  /**
   * A pod a claim is reserved for.
   *
   * @param containers its containers (and init containers) that reference the claim
   */
  public record ReservedPod(String namespace, String name, String uid, List<String> containers) {
    /** Copies the list. */
    public ReservedPod {
      containers = List.copyOf(containers);
    }
  }
}
