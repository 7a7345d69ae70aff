package io.migd.nvml;

/** Per-process utilisation percentages of a time-shared GPU, at a sample time in microseconds. */
public record ProcessUtilization(
    int pid,
    long timestampMicros,
    int smPercent,
    int memoryPercent,
    int encoderPercent,
    int decoderPercent) {}
