package io.migd.profiles;

/**
 * A CUDA compute capability such as {@code 8.0} (Ampere A100) or {@code 9.0} (Hopper).
 *
 * @param major the major version
 * @param minor the minor version
 */
public record ComputeCapability(int major, int minor) {

  /**
   * Validates the parts.
   *
   * @throws IllegalArgumentException if a part is negative
   */
  public ComputeCapability {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("invalid compute capability " + major + "." + minor);
    }
  }

  /**
   * Parses {@code major.minor}.
   *
   * @param text for example {@code "8.9"}
   * @return the compute capability
   * @throws IllegalArgumentException if the text is not two decimal numbers joined by a dot
   */
  public static ComputeCapability parse(String text) {
    int dot = text.indexOf('.');
    if (dot < 0) {
      throw new IllegalArgumentException("compute capability \"" + text + "\" is not major.minor");
    }
    return new ComputeCapability(
        Decimal.parse(text.substring(0, dot), "compute capability major"),
        Decimal.parse(text.substring(dot + 1), "compute capability minor"));
  }

  /**
   * The {@code major.minor} form.
   *
   * @return for example {@code "9.0"}
   */
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
