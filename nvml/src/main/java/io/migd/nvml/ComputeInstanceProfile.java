package io.migd.nvml;

/**
 * A compute-instance profile offered inside one GPU instance. {@code index} is the {@code
 * NVML_COMPUTE_INSTANCE_PROFILE_*} constant, {@code id} what create and list calls take; engine
 * counts are shared with the GPU instance.
 */
public record ComputeInstanceProfile(
    int index,
    int id,
    int sliceCount,
    int instanceCount,
    int multiprocessorCount,
    int sharedCopyEngineCount,
    int sharedDecoderCount,
    int sharedEncoderCount,
    int sharedJpegCount,
    int sharedOfaCount,
    String name) {}
