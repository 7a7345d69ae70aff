package io.migd.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.migd.node.NodeLabelWatch;
import io.migd.node.NodeStateWriter;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.ReconcileLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Kubernetes node surface (docs/contract.md, Kubernetes node), only when the environment
 * variable {@code NODE_NAME} names the node (the downward API's {@code spec.nodeName}): the label
 * {@code nvidia.com/mig.config} as the intent, the state written back to the Node. Without it migd
 * runs standalone.
 */
@Configuration(proxyBeanMethods = false)
class NodeConfiguration {
  private static final Logger log = LoggerFactory.getLogger(NodeConfiguration.class);

  /** With {@code NODE_NAME} set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnExpression("!'${NODE_NAME:}'.isBlank()")
  static class OnNode {
    /** In-cluster config, or KUBECONFIG / ~/.kube/config, by fabric8's own resolution. */
    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient() {
      return new KubernetesClientBuilder().build();
    }

    @Bean(destroyMethod = "close")
    NodeLabelWatch nodeLabelWatch(KubernetesClient client, @Value("${NODE_NAME}") String nodeName) {
      return new NodeLabelWatch(client, nodeName.strip());
    }

    @Bean
    NodeStateWriter nodeStateWriter(
        KubernetesClient client, @Value("${NODE_NAME}") String nodeName) {
      return new NodeStateWriter(client, nodeName.strip());
    }

    /** A label change becomes the intent, then a reconcile; started once the loop exists. */
    @Bean
    SmartInitializingSingleton nodeLabelWatchStart(
        NodeLabelWatch watch, IntentService intents, ReconcileLoop loop) {
      return () ->
          watch.start(
              label -> {
                if (intents.labelSeen(label)) {
                  loop.trigger();
                }
              });
    }
  }

  /** Without {@code NODE_NAME}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnExpression("'${NODE_NAME:}'.isBlank()")
  static class Standalone {
    Standalone() {
      log.info("no NODE_NAME: standalone, node labels are not read or written");
    }
  }
}
