package io.migd.nvml;

/**
 * One answer of a batch field read: the field id, the per-field return code, and the value as an
 * unsigned 64-bit integer (meaningful only when {@code result} is {@link NvmlReturn#SUCCESS}).
 */
public record FieldValue(int fieldId, NvmlReturn result, long value) {
  /** Field id: whether the GPU changes MIG mode without a reset. */
  public static final int IS_RESETLESS_MIG_SUPPORTED = 184;

  /** Field id: whether MIG queries answer independently of the MIG mode. */
  public static final int IS_MIG_MODE_INDEPENDENT_MIG_QUERY_CAPABLE = 199;
}
