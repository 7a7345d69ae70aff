package io.migd.nvml;

/**
 * An NVML function returned something other than {@code NVML_SUCCESS}. Carries the C function name
 * and the code, so logs and callers can say exactly which call failed and how.
 */
public final class NvmlException extends RuntimeException {
  private final String function;
  private final NvmlReturn code;

  /** A failure of {@code function} with {@code code}, plus what was being done. */
  public NvmlException(String function, NvmlReturn code, String context) {
    super(
        function
            + " returned "
            + code.cName()
            + " ("
            + code.meaning()
            + ")"
            + (context.isEmpty() ? "" : " while " + context));
    this.function = function;
    this.code = code;
  }

  /** The C function that failed, such as {@code nvmlDeviceCreateGpuInstanceWithPlacement}. */
  public String function() {
    return function;
  }

  /** The code it returned. */
  public NvmlReturn code() {
    return code;
  }
}
