package io.migd.nvml;

/**
 * A GPU's architecture, NVML's {@code nvmlDeviceArchitecture_t} ({@code
 * nvmlDeviceGetArchitecture}), with the name NVIDIA's own tools publish for it (go-nvlib's {@code
 * GetArchitectureAsString}, which NVIDIA's DRA driver writes as the {@code architecture}
 * attribute).
 */
public enum GpuArchitecture {
  /** {@code NVML_DEVICE_ARCH_KEPLER}. */
  KEPLER(2, "Kepler"),
  /** {@code NVML_DEVICE_ARCH_MAXWELL}. */
  MAXWELL(3, "Maxwell"),
  /** {@code NVML_DEVICE_ARCH_PASCAL}. */
  PASCAL(4, "Pascal"),
  /** {@code NVML_DEVICE_ARCH_VOLTA}. */
  VOLTA(5, "Volta"),
  /** {@code NVML_DEVICE_ARCH_TURING}: T4. */
  TURING(6, "Turing"),
  /** {@code NVML_DEVICE_ARCH_AMPERE}: A100, A30; MIG mode changes need a GPU reset. */
  AMPERE(7, "Ampere"),
  /** {@code NVML_DEVICE_ARCH_ADA}: L4, L40S. */
  ADA(8, "Ada Lovelace"),
  /** {@code NVML_DEVICE_ARCH_HOPPER}: H100, H200. */
  HOPPER(9, "Hopper"),
  /** {@code NVML_DEVICE_ARCH_BLACKWELL}: B200. */
  BLACKWELL(10, "Blackwell"),
  /** {@code NVML_DEVICE_ARCH_RUBIN}. */
  RUBIN(13, "Rubin"),
  /** {@code NVML_DEVICE_ARCH_UNKNOWN}, and any value this enum does not know. */
  UNKNOWN(0xFFFF_FFFF, "Unknown");

  private final int value;
  private final String nvidiaName;

  GpuArchitecture(int value, String nvidiaName) {
    this.value = value;
    this.nvidiaName = nvidiaName;
  }

  /** The C enum value (unsigned; {@link #UNKNOWN} is {@code 0xFFFFFFFF}). */
  public int value() {
    return value;
  }

  /** The name NVIDIA's tools publish, such as {@code Hopper} or {@code Ada Lovelace}. */
  public String nvidiaName() {
    return nvidiaName;
  }

  /** The architecture of a C enum value; {@link #UNKNOWN} for a value this enum does not know. */
  public static GpuArchitecture of(int value) {
    for (GpuArchitecture architecture : values()) {
      if (architecture.value == value) {
        return architecture;
      }
    }
    return UNKNOWN;
  }
}
