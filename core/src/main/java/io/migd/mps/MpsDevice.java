package io.migd.mps;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.util.List;
import java.util.Objects;

/**
 * A GPU or MIG slice shared by MPS: its UUID (the daemon's {@code CUDA_VISIBLE_DEVICES}), where it
 * is, how many replicas share it and its memory, from which the daemon's limits follow.
 *
 * @param uuid the GPU's or MIG device's UUID
 * @param gpu the GPU it is on
 * @param gpuInstanceId its GPU instance, {@link Usage#WHOLE_GPU} for a whole GPU
 * @param computeInstanceId its compute instance, {@link Usage#ALL_COMPUTE_INSTANCES} for a whole
 *     GPU
 * @param replicas how many replicas share it, 1 to 48
 * @param memoryMib its memory in MiB
 */
public record MpsDevice(
    String uuid,
    GpuIndex gpu,
    int gpuInstanceId,
    int computeInstanceId,
    int replicas,
    long memoryMib) {
  /** Checks the references are present and the replicas at least 1. */
  public MpsDevice {
    Objects.requireNonNull(uuid);
    Objects.requireNonNull(gpu);
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, got " + replicas);
    }
  }

  /** Whether this is a whole GPU. */
  public boolean isWholeGpu() {
    return gpuInstanceId == Usage.WHOLE_GPU;
  }

  /** {@code set_default_active_thread_percentage}: each client's share of the threads. */
  public int activeThreadPercentage() {
    return 100 / replicas;
  }

  /** {@code set_default_device_pinned_mem_limit}: each client's share of the memory, in MiB. */
  public long pinnedMemoryLimitMib() {
    return memoryMib / replicas;
  }

  /** The daemon migd asks the supervisor for: one user, the limits of N replicas. */
  public DaemonSpec spec() {
    return new DaemonSpec(
        uuid,
        false,
        isWholeGpu(),
        List.of(
            new DaemonSpec.Limit.ActiveThreads(activeThreadPercentage()),
            new DaemonSpec.Limit.PinnedMemory(pinnedMemoryLimitMib())));
  }

  /** The commands that set the limits, as the control command reads them. */
  public List<String> limitCommands() {
    return List.of(
        "set_default_active_thread_percentage " + activeThreadPercentage(),
        "set_default_device_pinned_mem_limit 0 " + pinnedMemoryLimitMib() + "M");
  }
}
