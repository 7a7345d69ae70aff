package io.migd.nvml;

/** GPU and memory busy percentages over the last sample period (GPUs without MIG only). */
public record Utilization(int gpuPercent, int memoryPercent) {}
