package io.migd.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code migd_nvml_calls_total{function,result}}: every call of the NVML session, by C function and
 * return code ({@code NVML_SUCCESS}, {@code NVML_ERROR_IN_USE}, ...). Both label sets are bounded:
 * the functions migd binds and the codes of {@code nvmlReturn_t}.
 */
public final class NvmlCallCounter implements NvmlCallObserver {
  private final MeterRegistry registry;
  // a scrape makes hundreds of calls: look each counter up once, not through the registry per call
  private final Map<String, Map<NvmlReturn, Counter>> counters = new ConcurrentHashMap<>();

  /** Counts into {@code registry}. */
  public NvmlCallCounter(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void called(String function, NvmlReturn result) {
    counters
        .computeIfAbsent(function, f -> new ConcurrentHashMap<>())
        .computeIfAbsent(result, r -> register(function, r))
        .increment();
  }

  private Counter register(String function, NvmlReturn result) {
    return Counter.builder(Metric.NVML_CALLS_TOTAL.micrometerName())
        .description(Metric.NVML_CALLS_TOTAL.help())
        .tags("function", function, "result", result.cName())
        .register(registry);
  }
}
