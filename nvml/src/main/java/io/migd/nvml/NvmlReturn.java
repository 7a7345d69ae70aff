package io.migd.nvml;

/**
 * The codes NVML functions return ({@code nvmlReturn_t}). Every code other than {@link #SUCCESS}
 * becomes an {@link NvmlException} at the first Java frame.
 */
public enum NvmlReturn {
  /** Call succeeded. */
  SUCCESS(0, "call succeeded", false),
  /**
   * Library not initialised (no successful nvmlInit_v2/nvmlInitWithFlags yet, or already shut
   * down).
   */
  UNINITIALIZED(
      1,
      "library not initialised (no successful nvmlInit_v2/nvmlInitWithFlags yet, or already shut down)",
      false),
  /**
   * Bad handle, NULL output pointer, out-of-range index/profile, or bad struct version (some
   * calls).
   */
  INVALID_ARGUMENT(
      2,
      "bad handle, NULL output pointer, out-of-range index/profile, or bad struct version (some calls)",
      false),
  /**
   * The device/driver does not offer this operation (e.g. MIG on a non-MIG GPU, or MIG not
   * enabled).
   */
  NOT_SUPPORTED(
      3,
      "the device/driver does not offer this operation (e.g. MIG on a non-MIG GPU, or MIG not enabled)",
      false),
  /** Caller lacks privilege (MIG create/destroy and SetMigMode need root). */
  NO_PERMISSION(4, "caller lacks privilege (MIG create/destroy and SetMigMode need root)", false),
  /** Obsolete; init is reference counted now. */
  ALREADY_INITIALIZED(5, "obsolete; init is reference counted now", false),
  /** Lookup failed (no such UUID/PCI id, GI/CI id, MIG index, process). */
  NOT_FOUND(6, "lookup failed (no such UUID/PCI id, GI/CI id, MIG index, process)", false),
  /** Caller buffer/array too small; count outputs usually report the needed size. */
  INSUFFICIENT_SIZE(
      7, "caller buffer/array too small; count outputs usually report the needed size", false),
  /** External power cables not connected properly. */
  INSUFFICIENT_POWER(8, "external power cables not connected properly", false),
  /** NVIDIA kernel driver not loaded. */
  DRIVER_NOT_LOADED(9, "NVIDIA kernel driver not loaded", false),
  /** Wait timed out (nvmlEventSetWait_v2 with no event). */
  TIMEOUT(10, "wait timed out (nvmlEventSetWait_v2 with no event)", true),
  /** Kernel driver detected an interrupt problem. */
  IRQ_ISSUE(11, "kernel driver detected an interrupt problem", true),
  /** A shared library (e.g. libcuda) could not be loaded. */
  LIBRARY_NOT_FOUND(12, "a shared library (e.g. libcuda) could not be loaded", false),
  /** The loaded NVML lacks this entry point. */
  FUNCTION_NOT_FOUND(13, "the loaded NVML lacks this entry point", false),
  /** InfoROM corrupted. */
  CORRUPTED_INFOROM(14, "infoROM corrupted", false),
  /** GPU fell off the bus / inaccessible. */
  GPU_IS_LOST(15, "GPU fell off the bus / inaccessible", false),
  /** GPU needs a reset (or VM reboot) before it can be used / before a pending mode applies. */
  RESET_REQUIRED(
      16,
      "GPU needs a reset (or VM reboot) before it can be used / before a pending mode applies",
      false),
  /** Blocked by the OS or cgroups. */
  OPERATING_SYSTEM(17, "blocked by the OS or cgroups", true),
  /** Libnvidia-ml and kernel driver versions differ. */
  LIB_RM_VERSION_MISMATCH(18, "libnvidia-ml and kernel driver versions differ", false),
  /**
   * Resource busy: processes or child compute instances hold it, or GPU could not be reset/unbound.
   */
  IN_USE(
      19,
      "resource busy: processes or child compute instances hold it, or GPU could not be reset/unbound",
      false),
  /** Out of host memory. */
  MEMORY(20, "out of host memory", true),
  /** No data available. */
  NO_DATA(21, "no data available", false),
  /** VGPU operation unavailable because ECC is on. */
  VGPU_ECC_NOT_SUPPORTED(22, "vGPU operation unavailable because ECC is on", false),
  /** Not enough free slices/engines for the requested GPU or compute instance. */
  INSUFFICIENT_RESOURCES(
      23, "not enough free slices/engines for the requested GPU or compute instance", false),
  /** Requested frequency not supported. */
  FREQ_NOT_SUPPORTED(24, "requested frequency not supported", false),
  /** The version field of a versioned struct is not accepted. */
  ARGUMENT_VERSION_MISMATCH(25, "the version field of a versioned struct is not accepted", false),
  /** Functionality deprecated. */
  DEPRECATED(26, "functionality deprecated", false),
  /** System not ready for the request. */
  NOT_READY(27, "system not ready for the request", true),
  /** No GPUs found. */
  GPU_NOT_FOUND(28, "no GPUs found", false),
  /** Resource in the wrong state for the operation. */
  INVALID_STATE(29, "resource in the wrong state for the operation", false),
  /** Requested reset type not supported. */
  RESET_TYPE_NOT_SUPPORTED(30, "requested reset type not supported", false),
  /** Internal/unexpected driver error. */
  UNKNOWN(999, "internal/unexpected driver error", true);

  private final int code;
  private final String meaning;
  private final boolean isTransient;

  NvmlReturn(int code, String meaning, boolean isTransient) {
    this.code = code;
    this.meaning = meaning;
    this.isTransient = isTransient;
  }

  /** The numeric value of the C enum. */
  public int code() {
    return code;
  }

  /** A one-line meaning of the code, for messages. */
  public String meaning() {
    return meaning;
  }

  /** The C name of the code, such as {@code NVML_ERROR_IN_USE}. */
  public String cName() {
    return this == SUCCESS ? "NVML_SUCCESS" : "NVML_ERROR_" + name();
  }

  /**
   * Whether retrying the same call later may succeed without anything else changing (a timeout, a
   * driver that is not ready yet); terminal codes such as {@link #NOT_SUPPORTED} are not.
   */
  public boolean isTransient() {
    return isTransient;
  }

  /**
   * The code for a numeric value; a value this header version does not know maps to {@link
   * #UNKNOWN}.
   */
  public static NvmlReturn of(int code) {
    for (NvmlReturn r : values()) {
      if (r.code == code) {
        return r;
      }
    }
    return UNKNOWN;
  }
}
