package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.cli.MigdProcess;
import io.migd.sim.Kubeconfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} with {@code NODE_NAME}, as a real process against the fabric8 mock API server:
 * the capacity labels are on by default and {@code migd.node.capacity-labels=false} stops them; the
 * Node Events come either way.
 */
@EnableKubernetesMockClient(crud = true)
class CapacityLabelsServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "gpu-5";
  private static final String COUNT = "nvidia.com/mig-3g.20gb.count";

  KubernetesClient client;
  @TempDir Path nodeDir;

  private MigdProcess migdOnNode() throws Exception {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of("nvidia.com/mig.config", "all-3g.20gb", "team", "ml"))
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    Path kubeconfig = nodeDir.resolve("kubeconfig");
    Files.createDirectories(nodeDir);
    Kubeconfig.write(kubeconfig, client.getConfiguration().getMasterUrl());
    return MigdProcess.on(nodeDir)
        .withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_KUBELET_ENABLED", "false")
        .withEnvironment("NODE_NAME", NODE)
        .withEnvironment("KUBECONFIG", kubeconfig.toString());
  }

  @Test
  void theCapacityLabelsAndTheEventsByDefault() throws Exception {
    try (var daemon = migdOnNode().start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(labels())
                      .as(daemon.stdout())
                      .containsEntry(COUNT, "2")
                      .containsEntry("nvidia.com/mig.capable", "true")
                      .containsEntry("nvidia.com/mig.strategy", "mixed")
                      .containsEntry("nvidia.com/gpu.sharing-strategy", "none")
                      .containsEntry("nvidia.com/gpu.replicas", "1")
                      .containsEntry("nvidia.com/mig.config.state", "success")
                      .containsEntry("team", "ml"));
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(eventReasons()).contains("Reconfigured"));
    }
  }

  @Test
  void switchedOffNoCapacityLabel() throws Exception {
    var migd = migdOnNode().withEnvironment("MIGD_NODE_CAPACITYLABELS", "false");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(labels())
                      .as(daemon.stdout())
                      .containsEntry("nvidia.com/mig.config.state", "success"));
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(eventReasons()).contains("Reconfigured"));
      assertThat(labels())
          .doesNotContainKeys(
              COUNT,
              "nvidia.com/mig.capable",
              "nvidia.com/mig.strategy",
              "nvidia.com/gpu.sharing-strategy",
              "nvidia.com/gpu.replicas");
    }
  }

  private Map<String, String> labels() {
    var labels = new HashMap<String, String>();
    client.nodes().withName(NODE).get().getMetadata().getLabels().forEach(labels::put);
    return labels;
  }

  private java.util.List<String> eventReasons() {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> NODE.equals(e.getInvolvedObject().getName()))
        .map(Event::getReason)
        .toList();
  }
}
