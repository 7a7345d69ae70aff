package io.migd.nvml;

/**
 * Memory of a GPU or, on a MIG device handle, of its GPU instance, in bytes. {@code reserved} is
 * zero where the driver only answers the first version of the call.
 */
public record MemoryInfo(long totalBytes, long reservedBytes, long freeBytes, long usedBytes) {}
