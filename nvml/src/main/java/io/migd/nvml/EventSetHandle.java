package io.migd.nvml;

/**
 * An event set (nvmlEventSet_t), freed with Nvml#freeEventSet. An opaque value: compare it, never
 * interpret it.
 */
public record EventSetHandle(long address) {
  @Override
  public String toString() {
    return "EventSetHandle[0x" + Long.toHexString(address) + "]";
  }
}
