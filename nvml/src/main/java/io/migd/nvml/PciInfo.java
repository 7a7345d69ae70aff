package io.migd.nvml;

/**
 * PCI identity of a GPU. {@code deviceId} holds the device id in the upper 16 bits and the vendor
 * id (0x10DE) in the lower 16, as mig-parted's device filters write it ({@code 0x233010DE}).
 */
public record PciInfo(
    String busId, int domain, int bus, int device, int deviceId, int subsystemId) {
  /** The device id as mig-parted writes it, such as {@code 0x20B010DE}. */
  public String deviceIdHex() {
    return String.format("0x%08X", deviceId);
  }
}
