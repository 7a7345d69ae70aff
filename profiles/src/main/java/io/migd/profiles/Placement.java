package io.migd.profiles;

/**
 * Where a GPU instance sits on a GPU: a run of memory slices, as {@code
 * nvmlDeviceGetGpuInstancePossiblePlacements_v2} returns it and {@code
 * nvmlDeviceCreateGpuInstanceWithPlacement} takes it.
 *
 * <p>Units are memory slices (8 on A100/H100/H200/B200, 4 on A30), not compute slices: a {@code
 * 1g.10gb} instance on an A100-40GB occupies 2 memory slices, a {@code 7g.40gb} instance all 8.
 *
 * @param start the first memory slice, from 0
 * @param size the number of memory slices, at least 1
 */
public record Placement(int start, int size) {

  /**
   * Validates the range.
   *
   * @throws IllegalArgumentException if start is negative or size below 1
   */
  public Placement {
    if (start < 0 || size < 1) {
      throw new IllegalArgumentException("invalid placement start=" + start + " size=" + size);
    }
  }

  /**
   * Parses the {@code start:size} form used in {@code gpu-models.tsv} and in messages.
   *
   * @param text for example {@code "4:2"}
   * @return the placement
   * @throws IllegalArgumentException if the text is not two non-negative decimal integers separated
   *     by a colon, or describes an invalid range
   */
  public static Placement parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 0 || colon != text.lastIndexOf(':')) {
      throw new IllegalArgumentException("placement \"" + text + "\" is not start:size");
    }
    return new Placement(
        Decimal.parse(text.substring(0, colon), "placement start"),
        Decimal.parse(text.substring(colon + 1), "placement size"));
  }

  /**
   * The memory slice just after this placement (exclusive end).
   *
   * @return {@code start + size}
   */
  public int end() {
    return start + size;
  }

  /**
   * Whether two placements share at least one memory slice, so the two instances cannot both exist.
   *
   * @param other another placement on the same GPU
   * @return true if they overlap
   */
  public boolean overlaps(Placement other) {
    return start < other.end() && other.start < end();
  }

  /**
   * The {@code start:size} form.
   *
   * @return for example {@code "4:2"}
   */
  @Override
  public String toString() {
    return start + ":" + size;
  }
}
