package io.migd.nvml;

/**
 * A GPM sample buffer (nvmlGpmSample_t), freed with Nvml#freeGpmSample. An opaque value: compare
 * it, never interpret it.
 */
public record GpmSampleHandle(long address) {
  @Override
  public String toString() {
    return "GpmSampleHandle[0x" + Long.toHexString(address) + "]";
  }
}
