package io.migd.app;

import io.migd.devices.KubeletUsage;
import io.migd.ownership.ClaimedDevices;
import io.migd.reconcile.NodeSnapshot;
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
  /** The node snapshot; usage as the reconciler reads it; the prepared claims in dra mode. */
  @Bean
  RestNode restNode(
      NodeSnapshot snapshot,
      Optional<KubeletUsage> kubeletUsage,
      UsageSource processUsage,
      Optional<ClaimedDevices> claims) {
    return new RestNode(
        snapshot,
        UsageSelection.daemon(kubeletUsage, processUsage),
        claims.orElse(ClaimedDevices.NONE));
  }
}
