package io.migd.nvml;

/**
 * A GPU-instance profile as the driver reports it. {@code index} is the {@code
 * NVML_GPU_INSTANCE_PROFILE_*} constant it was asked by; {@code id} is the profile id every other
 * GPU-instance call takes. {@code name} is the driver's own name (such as {@code MIG 1g.10gb}),
 * empty when the driver only answers the oldest form of the call.
 */
public record GpuInstanceProfile(
    int index,
    int id,
    int sliceCount,
    int instanceCount,
    int multiprocessorCount,
    int copyEngineCount,
    int decoderCount,
    int encoderCount,
    int jpegCount,
    int ofaCount,
    long memorySizeMiB,
    String name) {}
