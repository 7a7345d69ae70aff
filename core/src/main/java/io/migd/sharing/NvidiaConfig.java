package io.migd.sharing;

import java.util.Locale;
import java.util.Objects;

/**
 * One of NVIDIA's opaque device configurations ({@code resource.nvidia.com/v1beta1}) that migd
 * serves: its kind decides the devices it may apply to, its sharing how they are shared.
 */
public record NvidiaConfig(Kind kind, DeviceSharing sharing) {
  /** The API version migd reads. */
  public static final String API_VERSION = "resource.nvidia.com/v1beta1";

  /** Checks both parts are there. */
  public NvidiaConfig {
    Objects.requireNonNull(kind);
    Objects.requireNonNull(sharing);
  }

  /** A {@code GpuConfig}. */
  public static NvidiaConfig gpu(DeviceSharing sharing) {
    return new NvidiaConfig(Kind.GPU_CONFIG, sharing);
  }

  /** A {@code MigDeviceConfig}. */
  public static NvidiaConfig mig(DeviceSharing sharing) {
    return new NvidiaConfig(Kind.MIG_DEVICE_CONFIG, sharing);
  }

  /** Whether it may apply to a device of {@code type}. */
  public boolean fits(DeviceType type) {
    return kind.devices == type;
  }

  /** The kinds migd serves, each for one type of device. */
  public enum Kind {
    /** {@code kind: GpuConfig}, for whole GPUs. */
    GPU_CONFIG("GpuConfig", DeviceType.GPU),
    /** {@code kind: MigDeviceConfig}, for MIG devices. */
    MIG_DEVICE_CONFIG("MigDeviceConfig", DeviceType.MIG);

    private final String written;
    private final DeviceType devices;

    Kind(String written, DeviceType devices) {
      this.written = written;
      this.devices = devices;
    }

    /** As the parameters write it. */
    @Override
    public String toString() {
      return written;
    }
  }

  /** A device's {@code type} attribute: what NVIDIA's kinds are matched against. */
  public enum DeviceType {
    /** A whole GPU ({@code type: gpu}). */
    GPU,
    /** A MIG device ({@code type: mig}). */
    MIG;

    /** As the attribute says it. */
    public String attribute() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
