package io.migd.nvml;

/**
 * What a compute instance is: its GPU, its GPU instance, its id (unique within the GPU instance),
 * its profile id and its placement in compute slices of the GPU instance.
 */
public record ComputeInstanceInfo(
    DeviceHandle device,
    GpuInstanceHandle gpuInstance,
    int id,
    int profileId,
    InstancePlacement placement) {}
