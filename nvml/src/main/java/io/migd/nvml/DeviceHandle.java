package io.migd.nvml;

/**
 * A GPU or a MIG device (nvmlDevice_t). A MIG device handle stands for one compute instance. An
 * opaque value: compare it, never interpret it.
 */
public record DeviceHandle(long address) {
  @Override
  public String toString() {
    return "DeviceHandle[0x" + Long.toHexString(address) + "]";
  }
}
