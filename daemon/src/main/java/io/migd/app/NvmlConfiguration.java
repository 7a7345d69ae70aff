package io.migd.app;

import io.migd.layout.NodeObserver;
import io.migd.metrics.NvmlCallCounter;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.NodeSnapshot;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the NVML session of the daemon, and the node snapshot the surfaces read. */
@Configuration(proxyBeanMethods = false)
class NvmlConfiguration {
  @Bean(destroyMethod = "close")
  NvmlSession nvmlSession(MigdProperties properties, NvmlCallCounter calls) {
    return NvmlConnector.open(properties, calls);
  }

  /** The node's one observer: the reconciler and the node snapshot share it. */
  @Bean
  NodeObserver nodeObserver(NvmlSession session, GpuModelCatalog catalog) {
    return new NodeObserver(session.nvml(), catalog);
  }

  /** The node as the last reconcile (or XID) left it, over the node's one observer. */
  @Bean
  NodeSnapshot nodeSnapshot(NvmlSession session, NodeObserver observer, MigdProperties properties) {
    MigdProperties.Nvml settings = properties.nvml();
    return new NodeSnapshot(observer, session.nvml(), session.resets(), settings.resetWait());
  }
}
