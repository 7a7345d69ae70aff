package io.migd.nvml;

/**
 * A compute instance (nvmlComputeInstance_t); invalid once the instance is destroyed. An opaque
 * value: compare it, never interpret it.
 */
public record ComputeInstanceHandle(long address) {
  @Override
  public String toString() {
    return "ComputeInstanceHandle[0x" + Long.toHexString(address) + "]";
  }
}
