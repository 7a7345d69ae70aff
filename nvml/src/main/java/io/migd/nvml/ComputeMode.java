package io.migd.nvml;

/** A GPU's compute mode ({@code nvmlComputeMode_t}): which processes may open a context on it. */
public enum ComputeMode {
  /** Any number of processes at once ({@code NVML_COMPUTEMODE_DEFAULT}). */
  DEFAULT(0),
  /** No process ({@code NVML_COMPUTEMODE_PROHIBITED}). */
  PROHIBITED(2),
  /**
   * One process at a time, an MPS server among them ({@code NVML_COMPUTEMODE_EXCLUSIVE_PROCESS}).
   */
  EXCLUSIVE_PROCESS(3);

  private final int value;

  ComputeMode(int value) {
    this.value = value;
  }

  /** The C enum's value. */
  public int value() {
    return value;
  }
}
