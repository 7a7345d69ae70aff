package io.migd.nvml;

/**
 * The NVML library could not be loaded or initialised, or native access is not enabled. The message
 * says what was tried and the exact remedy.
 */
public final class NvmlLoadException extends RuntimeException {
  /** A load failure with a message that names the remedy. */
  public NvmlLoadException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A load failure with a message that names the remedy. */
  public NvmlLoadException(String message) {
    super(message);
  }
}
