package io.migd.nvml;

/** CUDA compute capability of a GPU, such as 8.0 for A100 (MIG needs 8.0 or higher). */
public record ComputeCapability(int major, int minor) {
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
