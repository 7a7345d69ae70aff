package io.migd.app;

import io.migd.metrics.NvmlCallCounter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the NVML session of the daemon. */
@Configuration(proxyBeanMethods = false)
class NvmlConfiguration {
  @Bean(destroyMethod = "close")
  NvmlSession nvmlSession(MigdProperties properties, NvmlCallCounter calls) {
    return NvmlConnector.open(properties, calls);
  }
}
