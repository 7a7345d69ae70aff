package io.migd.nvml;

/**
 * A GPU's brand, NVML's {@code nvmlBrandType_t} ({@code nvmlDeviceGetBrand}), with the name
 * NVIDIA's own tools publish for it (go-nvlib's {@code GetBrandAsString}, which NVIDIA's DRA driver
 * writes as the {@code brand} attribute). Data-center GPUs report {@link #NVIDIA} on current
 * drivers ({@code Product Brand : NVIDIA} in nvidia-smi for T4, A100 and H100 alike).
 */
public enum GpuBrand {
  /** {@code NVML_BRAND_UNKNOWN}, and any value this enum does not know. */
  UNKNOWN(0, "Unknown"),
  /** {@code NVML_BRAND_QUADRO}. */
  QUADRO(1, "Quadro"),
  /** {@code NVML_BRAND_TESLA}, what older drivers reported for data-center GPUs. */
  TESLA(2, "Tesla"),
  /** {@code NVML_BRAND_NVS}. */
  NVS(3, "NVS"),
  /** {@code NVML_BRAND_GRID}, no longer reported. */
  GRID(4, "Grid"),
  /** {@code NVML_BRAND_GEFORCE}. */
  GEFORCE(5, "GeForce"),
  /** {@code NVML_BRAND_TITAN}. */
  TITAN(6, "Titan"),
  /** {@code NVML_BRAND_NVIDIA_VAPPS}, NVIDIA Virtual Applications. */
  NVIDIA_VAPPS(7, "NvidiaVApps"),
  /** {@code NVML_BRAND_NVIDIA_VPC}, NVIDIA Virtual PC. */
  NVIDIA_VPC(8, "NvidiaVPC"),
  /** {@code NVML_BRAND_NVIDIA_VCS}, NVIDIA Virtual Compute Server. */
  NVIDIA_VCS(9, "NvidiaVCS"),
  /** {@code NVML_BRAND_NVIDIA_VWS}, NVIDIA RTX Virtual Workstation. */
  NVIDIA_VWS(10, "NvidiaVWS"),
  /** {@code NVML_BRAND_NVIDIA_CLOUD_GAMING} (formerly {@code NVIDIA_VGAMING}). */
  NVIDIA_CLOUD_GAMING(11, "NvidiaCloudGaming"),
  /** {@code NVML_BRAND_QUADRO_RTX}. */
  QUADRO_RTX(12, "QuadroRTX"),
  /** {@code NVML_BRAND_NVIDIA_RTX}. */
  NVIDIA_RTX(13, "NvidiaRTX"),
  /** {@code NVML_BRAND_NVIDIA}. */
  NVIDIA(14, "Nvidia"),
  /** {@code NVML_BRAND_GEFORCE_RTX}. */
  GEFORCE_RTX(15, "GeForceRTX"),
  /** {@code NVML_BRAND_TITAN_RTX}. */
  TITAN_RTX(16, "TitanRTX");

  private final int value;
  private final String nvidiaName;

  GpuBrand(int value, String nvidiaName) {
    this.value = value;
    this.nvidiaName = nvidiaName;
  }

  /** The C enum value. */
  public int value() {
    return value;
  }

  /** The name NVIDIA's tools publish, such as {@code Nvidia} or {@code Tesla}. */
  public String nvidiaName() {
    return nvidiaName;
  }

  /** The brand of a C enum value; {@link #UNKNOWN} for a value this enum does not know. */
  public static GpuBrand of(int value) {
    for (GpuBrand brand : values()) {
      if (brand.value == value) {
        return brand;
      }
    }
    return UNKNOWN;
  }
}
