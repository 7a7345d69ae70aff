package io.migd.nvml;

/** Resources of a MIG device: SMs, shared engines, slice counts and memory. */
public record DeviceAttributes(
    int multiprocessorCount,
    int sharedCopyEngineCount,
    int sharedDecoderCount,
    int sharedEncoderCount,
    int sharedJpegCount,
    int sharedOfaCount,
    int gpuInstanceSliceCount,
    int computeInstanceSliceCount,
    long memorySizeMiB) {}
