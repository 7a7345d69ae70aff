package io.migd.app;

import io.migd.devices.KubeletUsage;
import io.migd.layout.NodeObserver;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.UsageSource;
import io.migd.rest.RestNode;
import java.util.Optional;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * The REST surface under {@code /api/v1}: its controllers, the filter that authenticates them
 * ({@code io.migd.rest.auth}) and what they read of the node.
 */
@Configuration(proxyBeanMethods = false)
@ComponentScan("io.migd.rest")
class RestConfiguration {
  /** Its own observer over the daemon's NVML session; usage as the reconciler reads it. */
  @Bean
  RestNode restNode(
      NvmlSession session,
      GpuModelCatalog catalog,
      Optional<KubeletUsage> kubeletUsage,
      UsageSource processUsage) {
    return new RestNode(
        new NodeObserver(session.nvml(), catalog),
        UsageSelection.daemon(kubeletUsage, processUsage));
  }
}
