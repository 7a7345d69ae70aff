package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.cli.MigdProcess;
import io.migd.sim.Kubeconfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} with {@code NODE_NAME} set, as a real process against the fabric8 mock API
 * server (reached through {@code KUBECONFIG}): the label read at start is applied before anything
 * else, the state shows on the Node, a relabel is applied; without {@code NODE_NAME} the daemon
 * says it runs standalone.
 */
@EnableKubernetesMockClient(crud = true)
class NodeServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "gpu-7";

  KubernetesClient client;
  @TempDir Path nodeDir;

  @Test
  void appliesTheNodeLabelAndShowsTheStateOnTheNode() throws Exception {
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
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIG", "all-7g.40gb")
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString());
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "success"));
      assertThat(migd.stateDir().resolve("intent.json"))
          .as("the label beat migd.config at start")
          .content()
          .contains("all-3g.20gb");
      assertThat(labels()).containsEntry("team", "ml");

      client
          .nodes()
          .withName(NODE)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\"nvidia.com/mig.config\":\"all-unknown\"}}}");
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(labels()).containsEntry(STATE, "failed"));
      assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
          .hasEntrySatisfying(
              "migd.io/state-reason", reason -> assertThat(reason).contains("all-unknown"));
      assertThat(daemon.isAlive()).as(daemon.stdout()).isTrue();
      assertThat(daemon.stdout()).doesNotContain("standalone");
    }
  }

  @Test
  void onANodeAnInvalidConfigFileIsAFailedStateNotAStopAndTheKubeletKeepsItsPlugin()
      throws Exception {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of("nvidia.com/mig.config", "all-3g.20gb"))
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    Files.createDirectories(nodeDir);
    Path kubeconfig = nodeDir.resolve("kubeconfig");
    Kubeconfig.write(kubeconfig, client.getConfiguration().getMasterUrl());
    Path configFile =
        Files.writeString(nodeDir.resolve("configs.yaml"), "version: v1\nmig-configs: [");
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString());
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "failed"));
      assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
          .hasEntrySatisfying(
              "migd.io/state-reason",
              reason ->
                  assertThat(reason)
                      .contains("configs.yaml: not valid YAML")
                      .contains("nothing on the GPUs changes until the file is fixed"));
      assertThat(daemon.isAlive()).as(daemon.stdout()).isTrue();
    }
  }

  @Test
  void anAbsentApiServerDoesNotStopTheGpuSide() throws Exception {
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Files.createDirectories(nodeDir);
    Path kubeconfig = nodeDir.resolve("kubeconfig");
    Kubeconfig.write(kubeconfig, "https://127.0.0.1:" + closedPort);
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIG", "all-7g.40gb")
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString());
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      // the GPU UUIDs are recorded after the first reconcile: the file config was applied
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(migd.stateDir().resolve("intent.json"))
                      .as(daemon.stdout())
                      .content()
                      .contains("all-7g.40gb")
                      .contains("GPU-"));
      assertThat(daemon.stdout()).contains("cannot read node gpu-7 at start");
      assertThat(daemon.isAlive()).as(daemon.stdout()).isTrue();
    }
  }

  @Test
  void withoutNodeNameItSaysItRunsStandalone() {
    var migd = MigdProcess.on(nodeDir).withEnvironment("SERVER_PORT", "0");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(daemon.stdout())
                      .contains("no NODE_NAME: standalone, node labels are not read or written"));
    }
  }

  private static final String STATE = "nvidia.com/mig.config.state";

  private Map<String, String> labels() {
    return client.nodes().withName(NODE).get().getMetadata().getLabels();
  }
}
