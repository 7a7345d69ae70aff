package io.migd.nvml;

/** One GPM metric computed between two samples, with its own return code. */
public record GpmMetricValue(int metricId, NvmlReturn result, double value) {
  /** Metric id of SM utilisation in percent. */
  public static final int SM_UTIL = 2;
}
