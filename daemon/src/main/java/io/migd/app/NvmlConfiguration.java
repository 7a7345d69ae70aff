package io.migd.app;

import io.migd.metrics.NvmlCallCounter;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.Reconciler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the NVML session of the daemon, and the node snapshot the surfaces read. */
@Configuration(proxyBeanMethods = false)
class NvmlConfiguration {
  @Bean(destroyMethod = "close")
  NvmlSession nvmlSession(MigdProperties properties, NvmlCallCounter calls) {
    return NvmlConnector.open(properties, calls);
  }

  /** The node as the last reconcile (or XID) left it, over the reconciler's observer. */
  @Bean
  NodeSnapshot nodeSnapshot(NvmlSession session, Reconciler reconciler, MigdProperties properties) {
    return new NodeSnapshot(
        reconciler.observer(), session.nvml(), session.resets(), properties.nvml().resetWait());
  }
}
