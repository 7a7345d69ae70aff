package io.migd.nvml;

/**
 * The typed NVML API: the calls migd makes, with records in and out, as the composition of its
 * roles: the session ({@link NvmlSessionControl}), {@link DeviceQueries}, {@link MigQueries},
 * {@link MigControl} and {@link NvmlEvents}. A class that needs only a role takes that interface.
 * Every call that the driver answers with anything other than {@code NVML_SUCCESS} throws {@link
 * NvmlException} naming the C function and the code, except where a method documents that it maps
 * one code to an empty answer. NVML is thread-safe: calls run on the caller's thread, several
 * threads at once (the GPUs of a node are changed in parallel), behind the session gate, and a
 * failure is thrown there.
 */
public interface Nvml
    extends NvmlSessionControl, DeviceQueries, MigQueries, MigControl, NvmlEvents {}
