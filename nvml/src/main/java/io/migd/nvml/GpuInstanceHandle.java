package io.migd.nvml;

/**
 * A GPU instance (nvmlGpuInstance_t); invalid once the instance is destroyed or the GPU reset. An
 * opaque value: compare it, never interpret it.
 */
public record GpuInstanceHandle(long address) {
  @Override
  public String toString() {
    return "GpuInstanceHandle[0x" + Long.toHexString(address) + "]";
  }
}
