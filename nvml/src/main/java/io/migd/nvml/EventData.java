package io.migd.nvml;

/**
 * One event from an event set. For an XID, {@code eventData} is the XID number and the instance ids
 * say where it happened ({@link ProcessInfo#NO_INSTANCE} for the whole GPU).
 */
public record EventData(
    DeviceHandle device, long eventType, long eventData, int gpuInstanceId, int computeInstanceId) {
  /** Event type bit of a critical XID error. */
  public static final long XID_CRITICAL_ERROR = 0x8;

  /** Whether this is a critical XID error. */
  public boolean isXid() {
    return (eventType & XID_CRITICAL_ERROR) != 0;
  }
}
