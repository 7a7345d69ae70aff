package io.migd.profiles;

import java.util.HexFormat;

/**
 * One entry of a config item's {@code device-filter}: the PCI device id a GPU must have for the
 * item to apply to it, optionally narrowed to one board by its PCI subsystem id. Both ids are
 * written {@code 0xDDDDVVVV} (device, then vendor), the subsystem after a colon: {@code
 * "0x20B010DE"} or {@code "0x20B010DE:0x134F10DE"}, as mig-parted writes them.
 */
public sealed interface DeviceFilter {

  /**
   * The PCI device id the filter selects, {@code 0xDDDDVVVV}.
   *
   * @return device and vendor id as one number
   */
  int deviceId();

  /**
   * Whether a GPU with these ids is selected.
   *
   * @param gpuDeviceId the GPU's PCI device id, {@code 0xDDDDVVVV}
   * @param gpuSubsystemId the GPU's PCI subsystem id, {@code 0xSSSSVVVV}
   * @return true if the filter selects the GPU
   */
  boolean matches(int gpuDeviceId, int gpuSubsystemId);

  /**
   * A filter on the device id alone: every board of that GPU model.
   *
   * @param deviceId the PCI device id, {@code 0xDDDDVVVV}
   */
  record Device(int deviceId) implements DeviceFilter {
    @Override
    public boolean matches(int gpuDeviceId, int gpuSubsystemId) {
      return gpuDeviceId == deviceId;
    }

    /** The {@code 0xDDDDVVVV} form. */
    @Override
    public String toString() {
      return hex(deviceId);
    }
  }

  /**
   * A filter on the device id and the subsystem id: one board of a GPU model.
   *
   * @param deviceId the PCI device id, {@code 0xDDDDVVVV}
   * @param subsystemId the PCI subsystem id, {@code 0xSSSSVVVV}
   */
  record DeviceAndSubsystem(int deviceId, int subsystemId) implements DeviceFilter {
    @Override
    public boolean matches(int gpuDeviceId, int gpuSubsystemId) {
      return gpuDeviceId == deviceId && gpuSubsystemId == subsystemId;
    }

    /** The {@code 0xDDDDVVVV:0xSSSSVVVV} form. */
    @Override
    public String toString() {
      return hex(deviceId) + ":" + hex(subsystemId);
    }
  }

  /**
   * Parses a filter written {@code 0xDDDDVVVV} or {@code 0xDDDDVVVV:0xSSSSVVVV}: {@code 0x} and
   * exactly eight hex digits per id, either case.
   *
   * @param text the filter as written in the config file
   * @return the filter
   * @throws IllegalArgumentException saying what is wrong, if the text has another form
   */
  static DeviceFilter parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 0) {
      return new Device(id(text, text));
    }
    return new DeviceAndSubsystem(
        id(text.substring(0, colon), text), id(text.substring(colon + 1), text));
  }

  private static int id(String part, String whole) {
    if (!part.matches("0[xX][0-9A-Fa-f]{8}")) {
      throw new IllegalArgumentException(
          "\"" + whole + "\" is not a PCI id 0xDDDDVVVV, optionally followed by :0xSSSSVVVV");
    }
    return Integer.parseUnsignedInt(part.substring(2), 16);
  }

  private static String hex(int id) {
    return "0x" + HexFormat.of().withUpperCase().toHexDigits(id);
  }
}
