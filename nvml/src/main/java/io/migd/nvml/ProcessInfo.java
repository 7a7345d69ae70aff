package io.migd.nvml;

/**
 * A process with a compute context on a GPU. On a MIG-enabled GPU it names the GPU instance and
 * compute instance it runs in; otherwise both ids are {@link #NO_INSTANCE}.
 */
public record ProcessInfo(int pid, long usedMemoryBytes, int gpuInstanceId, int computeInstanceId) {
  /** The instance id NVML reports when MIG is off (0xFFFFFFFF). */
  public static final int NO_INSTANCE = -1;
}
