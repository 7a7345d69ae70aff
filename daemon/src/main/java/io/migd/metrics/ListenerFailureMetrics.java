package io.migd.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.migd.execute.ListenerFailures;
import java.util.Collection;

/**
 * {@code migd_listener_failures_total{listener}}: the listeners of the reconcile (its surfaces)
 * that threw, each by its name in the wiring. Every listener's series exists from the start at 0.
 */
public final class ListenerFailureMetrics implements ListenerFailures {
  private final MeterRegistry registry;

  /** Registers a series at 0 for each of {@code listeners}. */
  public ListenerFailureMetrics(MeterRegistry registry, Collection<String> listeners) {
    this.registry = registry;
    listeners.forEach(this::counter);
  }

  @Override
  public void failed(String listener, Throwable cause) {
    counter(listener).increment();
  }

  private Counter counter(String listener) {
    return Counter.builder(Metric.LISTENER_FAILURES_TOTAL.micrometerName())
        .description(Metric.LISTENER_FAILURES_TOTAL.help())
        .tag("listener", listener)
        .register(registry);
  }
}
