package io.migd.nvml;

/**
 * Told about every NVML call and its result, for the {@code migd_nvml_calls_total} metric. Calls
 * run on their callers' threads, several at once, so an observer must be thread-safe.
 */
@FunctionalInterface
public interface NvmlCallObserver {
  /** Observes nothing. */
  NvmlCallObserver NONE = (function, result) -> {};

  /** One call of {@code function} returned {@code result}. */
  void called(String function, NvmlReturn result);
}
