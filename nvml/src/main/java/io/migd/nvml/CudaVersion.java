package io.migd.nvml;

/**
 * A CUDA {@code major.minor} pair: a GPU's compute capability ({@code
 * nvmlDeviceGetCudaComputeCapability}, {@code 9.0}) or the CUDA version the driver supports ({@code
 * nvmlSystemGetCudaDriverVersion_v2}, {@code 13.0}).
 */
public record CudaVersion(int major, int minor) {
  /** Validates that neither part is negative. */
  public CudaVersion {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("CUDA version " + major + "." + minor + " is not valid");
    }
  }

  /**
   * The version NVML's CUDA driver version call encodes as {@code 1000 * major + 10 * minor}
   * ({@code 13000} is 13.0, {@code 12040} is 12.4), as {@code CUDA_VERSION} is.
   */
  public static CudaVersion ofDriverValue(int value) {
    return new CudaVersion(value / 1000, value % 1000 / 10);
  }

  /** {@code major.minor}, as NVIDIA's tools print it. */
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
