package io.migd.nvml;

/** GPU architecture as NVML reports it ({@code NVML_DEVICE_ARCH_*}). */
public enum GpuArchitecture {
  /** Kepler. */
  KEPLER(2),
  /** Maxwell. */
  MAXWELL(3),
  /** Pascal. */
  PASCAL(4),
  /** Volta. */
  VOLTA(5),
  /** Turing (T4). */
  TURING(6),
  /** Ampere (A30, A100). */
  AMPERE(7),
  /** Ada Lovelace (L4, L40S). */
  ADA(8),
  /** Hopper (H100, H200). */
  HOPPER(9),
  /** Blackwell (B200). */
  BLACKWELL(10),
  /** Rubin. */
  RUBIN(13),
  /** A value this binding does not know. */
  UNKNOWN(-1);

  private final int code;

  GpuArchitecture(int code) {
    this.code = code;
  }

  /** The C constant. */
  public int code() {
    return code;
  }

  /** The architecture for a C constant; unknown values map to {@link #UNKNOWN}. */
  public static GpuArchitecture of(int code) {
    for (GpuArchitecture a : values()) {
      if (a.code == code) {
        return a;
      }
    }
    return UNKNOWN;
  }
}
