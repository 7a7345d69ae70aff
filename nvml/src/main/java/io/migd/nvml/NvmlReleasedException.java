package io.migd.nvml;

import java.time.Duration;

/**
 * NVML stayed released (a GPU reset, see {@link Nvml#whileReleased}) for longer than a reader was
 * willing to wait ({@link Nvml#inSequence(Duration, java.util.function.Supplier)}). Not a failure
 * of NVML: the reader answers "busy" and asks again later.
 */
public final class NvmlReleasedException extends RuntimeException {
  private final Duration waited;

  /** A reader gave up after {@code waited}. */
  public NvmlReleasedException(Duration waited) {
    super(
        "NVML is released for a GPU reset; gave up after waiting " + waited.toMillis() + " ms",
        null,
        false,
        false);
    this.waited = waited;
  }

  /** How long the reader waited. */
  public Duration waited() {
    return waited;
  }
}
