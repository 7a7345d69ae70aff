package io.migd.nvml;

/**
 * Where an instance sits: for a GPU instance in memory-slice units of the GPU, for a compute
 * instance in compute-slice units of its GPU instance.
 */
public record InstancePlacement(int start, int size) {
  /** Validates that start is not negative and size is positive. */
  public InstancePlacement {
    if (start < 0 || size <= 0) {
      throw new IllegalArgumentException("placement " + start + ":" + size + " is not valid");
    }
  }

  @Override
  public String toString() {
    return start + ":" + size;
  }
}
