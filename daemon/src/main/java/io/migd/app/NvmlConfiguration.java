package io.migd.app;

import io.migd.nvml.NvmlCallObserver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the NVML session of the daemon. */
@Configuration(proxyBeanMethods = false)
class NvmlConfiguration {
  @Bean(destroyMethod = "close")
  NvmlSession nvmlSession(MigdProperties properties) {
    return NvmlConnector.open(properties, NvmlCallObserver.NONE);
  }
}
