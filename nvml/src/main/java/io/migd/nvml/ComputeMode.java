package io.migd.nvml;

/** The compute mode of a GPU or MIG device; {@link #DEFAULT} lets many contexts time-share it. */
public enum ComputeMode {
  /** Many contexts, time-sliced. */
  DEFAULT(0),
  /** No longer supported by the driver. */
  EXCLUSIVE_THREAD(1),
  /** No contexts allowed. */
  PROHIBITED(2),
  /** One process (as used with MPS). */
  EXCLUSIVE_PROCESS(3);

  private final int code;

  ComputeMode(int code) {
    this.code = code;
  }

  /** The C enum value. */
  public int code() {
    return code;
  }

  /** The mode for a C enum value. */
  public static ComputeMode of(int code) {
    for (ComputeMode m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown compute mode " + code);
  }
}
