package io.migd.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.devices.MigStrategy;
import io.migd.node.NodeLabelWatch;
import io.migd.reconcile.ReconcileLoop;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * NVIDIA's device-plugin config of the node (docs/contract.md, section 3): read at start, polled
 * every {@code migd.config-file-poll}, its key picked by the node label {@code
 * nvidia.com/device-plugin.config} when {@code NODE_NAME} is set; a change triggers a reconcile.
 */
@Configuration(proxyBeanMethods = false)
class DevicePluginConfigConfiguration {
  private static final Logger log = LoggerFactory.getLogger(DevicePluginConfigConfiguration.class);

  /** The watch of {@code nvidia.com/device-plugin.config}, apart from the MIG config label's. */
  record DevicePluginLabel(NodeLabelWatch watch) implements AutoCloseable {
    @Override
    public void close() {
      watch.close();
    }
  }

  @Bean
  DevicePluginConfigSource devicePluginConfigSource(
      MigdProperties properties, Optional<DevicePluginLabel> label) {
    Optional<String> value = Optional.empty();
    if (label.isPresent()) {
      try {
        value = label.get().watch().readLabel();
      } catch (RuntimeException e) {
        log.warn(
            "cannot read label {} of node {} at start: {}; the watch applies it when it sees the"
                + " node",
            DevicePluginConfigSource.LABEL,
            label.get().watch().nodeName(),
            e.toString());
      }
    }
    return DevicePluginConfigSource.start(
        properties.devicePluginConfig(),
        properties.devicePluginConfigDefault(),
        properties.migStrategy(),
        value);
  }

  /** The MIG strategy of this run: {@code migd.mig-strategy}, else the device-plugin config's. */
  @Bean
  MigStrategy migStrategy(DevicePluginConfigSource source) {
    return source.strategy();
  }

  /** The named configs and the device-plugin config's sharing, as the reconcile looks them up. */
  @Bean
  @Primary
  NodeConfigs nodeConfigs(LiveConfigFile file, DevicePluginConfigSource source) {
    return new NodeConfigs(file, source);
  }

  @Bean(destroyMethod = "close")
  PeriodicPoll devicePluginConfigPoll(
      DevicePluginConfigSource source, ReconcileLoop loop, MigdProperties properties) {
    return new PeriodicPoll(
        "migd-device-plugin-config-poll",
        "reading migd.device-plugin-config again",
        properties.configFilePoll(),
        () -> {
          if (source.poll()) {
            loop.trigger();
          }
        });
  }

  @Bean
  SmartInitializingSingleton devicePluginConfigPollStart(
      DevicePluginConfigSource source, PeriodicPoll devicePluginConfigPoll) {
    return () -> {
      if (source.isLive()) {
        devicePluginConfigPoll.start();
      }
    };
  }

  /** With {@code NODE_NAME} and a device-plugin config set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnExpression(
      "!'${NODE_NAME:}'.isBlank() && !'${migd.device-plugin-config:}'.isBlank()")
  static class OnNode {
    @Bean(destroyMethod = "close")
    DevicePluginLabel devicePluginLabel(
        KubernetesClient client,
        @Value("${NODE_NAME}") String nodeName,
        MigdProperties properties) {
      return new DevicePluginLabel(
          new NodeLabelWatch(
              client,
              nodeName.strip(),
              DevicePluginConfigSource.LABEL,
              properties.reconcile().resync()));
    }

    /** A label change picks another key, then a reconcile; started once the loop exists. */
    @Bean
    SmartInitializingSingleton devicePluginLabelStart(
        DevicePluginLabel label, DevicePluginConfigSource source, ReconcileLoop loop) {
      return () ->
          label
              .watch()
              .start(
                  value -> {
                    if (source.labelSeen(value)) {
                      loop.trigger();
                    }
                  });
    }
  }
}
