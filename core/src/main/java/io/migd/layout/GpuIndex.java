package io.migd.layout;

/** A GPU's NVML index on this node. */
public record GpuIndex(int value) implements Comparable<GpuIndex> {
  /** Validates the index is not negative. */
  public GpuIndex {
    if (value < 0) {
      throw new IllegalArgumentException("GPU index " + value + " is negative");
    }
  }

  @Override
  public int compareTo(GpuIndex other) {
    return Integer.compare(value, other.value);
  }

  @Override
  public String toString() {
    return Integer.toString(value);
  }
}
