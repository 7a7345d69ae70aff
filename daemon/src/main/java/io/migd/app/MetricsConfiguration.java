package io.migd.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.migd.devices.Inventory;
import io.migd.kubelet.KubeletSurface;
import io.migd.metrics.NodeCollector;
import io.migd.metrics.NvmlCallCounter;
import io.migd.metrics.ReconcileMetrics;
import io.migd.reconcile.NodeSnapshot;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code migd_*} metrics (docs/contract.md, metrics) at {@code /actuator/prometheus}. */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {
  @Bean
  NvmlCallCounter nvmlCallCounter(MeterRegistry registry) {
    return new NvmlCallCounter(registry);
  }

  @Bean
  ReconcileMetrics reconcileMetrics(MeterRegistry registry) {
    return new ReconcileMetrics(registry);
  }

  @Bean
  NodeCollector nodeCollector(
      PrometheusRegistry prometheus,
      NodeSnapshot snapshot,
      ObjectProvider<KubeletSurface> surface) {
    var collector =
        new NodeCollector(
            snapshot,
            () -> {
              KubeletSurface kubelet = surface.getIfAvailable();
              return kubelet == null ? Inventory.EMPTY : kubelet.current();
            });
    prometheus.register(collector);
    return collector;
  }
}
