package io.migd.nvml;

/** What a GPU instance is: its GPU, its id, its profile id and its placement. */
public record GpuInstanceInfo(
    DeviceHandle device, int id, int profileId, InstancePlacement placement) {}
