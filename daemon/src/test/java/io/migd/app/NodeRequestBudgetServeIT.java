package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.migd.cli.MigdProcess;
import io.migd.sim.Kubeconfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} on a node keeps its Node patches and Events within {@code migd.node.qps} and
 * {@code migd.node.burst} (DESIGN section 13) under a storm of relabels, writes the newest state,
 * converges through {@code 429} answers, and writes nothing while the node is idle. A real process
 * against the fabric8 mock API server, whose request journal counts what migd sent.
 */
@EnableKubernetesMockClient(crud = true)
class NodeRequestBudgetServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "gpu-5";
  private static final String NODE_PATH = "/api/v1/nodes/" + NODE;
  private static final String EVENTS_PATH = "/api/v1/namespaces/default/events";
  private static final String STATE = "nvidia.com/mig.config.state";
  private static final double QPS = 2;
  private static final int BURST = 4;

  KubernetesClient client;
  KubernetesMockServer server;
  @TempDir Path nodeDir;

  /** How many Node patches (only migd patches the Node) and Events migd sent. */
  private record Writes(int patches, int events) {
    int count() {
      return patches + events;
    }
  }

  @Test
  void aStormOfRelabelsStaysWithinTheBudgetAndTheNewestStateIsWritten() throws Exception {
    var migd = start("all-7g.40gb", "1m");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "success"));
      drain();

      long stormStart = System.nanoTime();
      for (int i = 0; i < 49; i++) {
        relabel(migd, i % 2 == 0 ? "all-1g.5gb" : "all-7g.40gb");
      }
      relabel(migd, "all-3g.20gb");
      // the last config's reconcile ended: its Reconfiguring, then a Reconfigured, were the last
      // Events sent
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                List<Event> events = events();
                assertThat(events).as(daemon.stdout()).isNotEmpty();
                assertThat(events.getLast().getReason()).isEqualTo("Reconfigured");
                assertThat(events)
                    .filteredOn(e -> e.getReason().equals("Reconfiguring"))
                    .last()
                    .extracting(Event::getMessage)
                    .asString()
                    .startsWith("applying config all-3g.20gb");
              });
      Writes writes = drain();
      double elapsed = (System.nanoTime() - stormStart) / 1e9;
      assertThat(writes.count())
          .as("Node patches and Events in %.1f s: %s", elapsed, writes)
          .isLessThanOrEqualTo((int) Math.floor(BURST + QPS * elapsed) + 1);
      // the newest state was written last: the Node shows the last config's reconcile
      assertThat(labels()).containsEntry(STATE, "success");
      assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
          .containsEntry("migd.io/state-reason", "every GPU matches the desired layout");
      assertThat(daemon.isAlive()).isTrue();
    }
  }

  @Test
  void convergesThroughTooManyRequestsAnswers() throws Exception {
    // no resync within the test: the writer itself writes again after the 429s
    var migd = start("all-7g.40gb", "10m");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "success"));
      relabel(migd, "all-unknown");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "failed"));
      // the API server answers the next four Node patches with 429 (the client's own retry
      // included), as API Priority and Fairness does under load
      server
          .expect()
          .patch()
          .withPath(NODE_PATH)
          .andReturn(
              429,
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                  + "\"Too many requests, please try again later.\",\"reason\":\"TooManyRequests\","
                  + "\"details\":{\"retryAfterSeconds\":1},\"code\":429}")
          .withHeader("Retry-After", "1")
          .times(4);
      drain();
      relabel(migd, "all-3g.20gb");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "success"));
      assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
          .containsEntry("migd.io/state-reason", "every GPU matches the desired layout");
      assertThat(drain().patches()).as("the four 429s and the writes after them").isGreaterThan(4);
      assertThat(daemon.stdout()).contains("the newest state is written again in");
    }
  }

  @Test
  void anIdleNodeWritesNothingOverResyncs() throws Exception {
    var migd = start("all-7g.40gb", "1s");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      int port = daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "success"));
      // the writes of the start may still be on their way: the idle time starts once none came
      // for a resync
      double[] atRest = {ReconcileCount.of(port)};
      await()
          .atMost(PATIENCE)
          .until(
              () -> {
                if (drain().count() > 0) {
                  atRest[0] = ReconcileCount.of(port);
                  return false;
                }
                return ReconcileCount.of(port) >= atRest[0] + 1;
              });
      double idleFrom = ReconcileCount.of(port);
      await().atMost(PATIENCE).until(() -> ReconcileCount.of(port) >= idleFrom + 3);
      assertThat(drain().count()).as("writes over three resyncs at rest").isZero();
    }
  }

  private MigdProcess start(String label, String resync) throws Exception {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of("nvidia.com/mig.config", label))
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    Files.createDirectories(nodeDir);
    Path kubeconfig = nodeDir.resolve("kubeconfig");
    Kubeconfig.write(kubeconfig, client.getConfiguration().getMasterUrl());
    return MigdProcess.on(nodeDir)
        .withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_KUBELET_ENABLED", "false")
        .withEnvironment("MIGD_NODE_QPS", Double.toString(QPS))
        .withEnvironment("MIGD_NODE_BURST", Integer.toString(BURST))
        .withEnvironment("MIGD_RECONCILE_RESYNC", resync)
        .withEnvironment("NODE_NAME", NODE)
        .withEnvironment("KUBECONFIG", kubeconfig.toString());
  }

  /**
   * As {@code kubectl label --overwrite}, but with a PUT, so that migd's are the only patches of
   * the Node; returns once migd took the label as its intent.
   */
  private void relabel(MigdProcess migd, String value) {
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(
            () -> {
              Node node = client.nodes().withName(NODE).get();
              var labels = new HashMap<>(node.getMetadata().getLabels());
              labels.put("nvidia.com/mig.config", value);
              node.getMetadata().setLabels(labels);
              client.nodes().resource(node).update();
              return true;
            });
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(migd.stateDir().resolve("intent.json"))
                    .content()
                    .contains("\"" + value + "\""));
  }

  /** Every request the API server got, in order, as far as read. */
  private final List<RecordedRequest> journal = new ArrayList<>();

  private int drained;

  /** migd's writes since the last drain. */
  private Writes drain() throws InterruptedException {
    RecordedRequest request;
    while ((request = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
      journal.add(request);
    }
    int patches = 0;
    int events = 0;
    for (RecordedRequest r : journal.subList(drained, journal.size())) {
      if ("PATCH".equals(r.getMethod()) && NODE_PATH.equals(r.getPath())) {
        patches++;
      } else if ("POST".equals(r.getMethod()) && EVENTS_PATH.equals(r.getPath())) {
        events++;
      }
    }
    drained = journal.size();
    return new Writes(patches, events);
  }

  /** The Events about the Node, in the order migd sent them ({@code <node>.<hex time>}). */
  private List<Event> events() {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .sorted(Comparator.comparing(e -> e.getMetadata().getName()))
        .toList();
  }

  private Map<String, String> labels() {
    return client.nodes().withName(NODE).get().getMetadata().getLabels();
  }
}
