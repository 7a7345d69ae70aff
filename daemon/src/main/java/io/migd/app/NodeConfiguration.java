package io.migd.app;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.migd.devices.MigStrategy;
import io.migd.execute.Backoff;
import io.migd.node.CapacityLabels;
import io.migd.node.NodeLabelWatch;
import io.migd.node.NodeStateWriter;
import io.migd.node.OperandLabels;
import io.migd.node.RequestBudget;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.KubeletMode;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.OperandPause;
import io.migd.reconcile.ReconcileLoop;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * {@code nvidia.com/mig.config} as the intent; the state, Node Events and capacity labels written
 * back to the Node. Without it migd runs standalone.
 */
@Configuration(proxyBeanMethods = false)
class NodeConfiguration {
  private static final Logger log = LoggerFactory.getLogger(NodeConfiguration.class);

  /** With {@code NODE_NAME} set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnExpression("!'${NODE_NAME:}'.isBlank()")
  static class OnNode {
    /**
     * In-cluster config, or KUBECONFIG / ~/.kube/config, by fabric8's own resolution. One retry per
     * request: the start-time read must not hold the start for fabric8's default ten retries (about
     * 100 s) when the API server is away; the watch and the writes try again on their own. That
     * retry waits what a {@code 429}'s {@code Retry-After} asks. Every request times out after 10
     * s; reads for a kubelet call and the access reviews are not throttled, the Node writes take
     * from {@code migd.node.qps} (DESIGN section 13).
     */
    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient() {
      Config config =
          new ConfigBuilder(Config.autoConfigure(null))
              .withRequestRetryBackoffLimit(1)
              .withConnectionTimeout(5_000)
              .withRequestTimeout(10_000)
              .build();
      return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * The writer's own thread, so the reconcile loop never waits for the API server; not an
     * Executor bean, which would make Spring Boot drop its own task executor.
     */
    record WriterThread(ExecutorService executor) implements AutoCloseable {
      @Override
      public void close() {
        executor.shutdownNow();
      }
    }

    @Bean(destroyMethod = "close")
    WriterThread nodeStateWriterThread() {
      return new WriterThread(
          Executors.newSingleThreadExecutor(
              Thread.ofPlatform().name("migd-node-writer").daemon(true).factory()));
    }

    @Bean(destroyMethod = "close")
    NodeLabelWatch nodeLabelWatch(
        KubernetesClient client,
        @Value("${NODE_NAME}") String nodeName,
        MigdProperties properties) {
      return new NodeLabelWatch(client, nodeName.strip(), properties.reconcile().resync());
    }

    /**
     * The state, the Events and, unless {@code migd.node.capacity-labels=false}, the capacity
     * labels, from each outcome: the node as the reconcile left it and the sharing it resolved;
     * within {@code migd.node.qps} and {@code migd.node.burst}.
     */
    /** The Node writes' budget: {@code migd.node.qps} and {@code migd.node.burst}. */
    @Bean
    RequestBudget nodeRequestBudget(MigdProperties properties) {
      return new RequestBudget(
          properties.node().qps(),
          properties.node().burst(),
          new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)));
    }

    /**
     * The GPU Operator's operands paused while a MIG mode change waits ({@code migd.pause.*});
     * operands a previous run left paused are set back now.
     */
    @Bean
    OperandPause operandPause(
        KubernetesClient client,
        @Value("${NODE_NAME}") String nodeName,
        MigdProperties properties,
        RequestBudget budget) {
      return OperandPause.start(
          new OperandPause.Settings(properties.pause().operands(), properties.pause().timeout()),
          new OperandLabels(client, nodeName.strip(), budget),
          properties.stateDir(),
          Clock.systemUTC());
    }

    @Bean
    NodeStateWriter nodeStateWriter(
        KubernetesClient client,
        @Value("${NODE_NAME}") String nodeName,
        WriterThread writerThread,
        MigdProperties properties,
        MigStrategy strategy,
        LayoutProgress progress,
        RequestBudget budget) {
      // in dra mode the scheduler reads the ResourceSlices, not node capacity labels
      CapacityLabels.Source capacity =
          properties.node().capacityLabels() && properties.kubelet().mode() != KubeletMode.DRA
              ? CapacityLabels.Source.inventory(strategy)
              : CapacityLabels.Source.OFF;
      return new NodeStateWriter(
          client,
          nodeName.strip(),
          writerThread.executor(),
          capacity,
          progress::reconciling,
          budget);
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
