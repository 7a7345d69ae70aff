package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.cli.MigdProcess;
import io.migd.kubelet.FakeKubelet;
import io.migd.sim.Kubeconfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} with NVIDIA's device-plugin config (DESIGN section 13), as the kubelet sees it
 * through a fake kubelet: replicas under the renamed resource, {@code Allocate} of two replicas
 * refused where {@code failRequestsGreaterThanOne} says so, a config item's own time-slicing
 * winning over the file; on a node, the label {@code nvidia.com/device-plugin.config} picking the
 * key of a ConfigMap directory (a {@code ..data} symlink swap included), and a refused config
 * failing the node with a reason naming the file and the key.
 */
@EnableKubernetesMockClient(crud = true)
class DevicePluginConfigServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "gpu-9";
  private static final String STATE = "nvidia.com/mig.config.state";
  private static final String LABEL = "nvidia.com/device-plugin.config";

  KubernetesClient client;
  @TempDir Path nodeDir;
  private Path pluginDir;
  private FakeKubelet kubelet;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void startKubelet() throws IOException {
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "migd-dpc");
    kubelet = FakeKubelet.start(pluginDir);
  }

  @AfterEach
  void stopKubelet() throws Exception {
    kubelet.close();
    FakeKubelet.deleteEveryFile(pluginDir);
    Files.deleteIfExists(pluginDir);
  }

  @Test
  void advertisesRenamedReplicasAndRefusesTwoInOneRequest() throws Exception {
    Files.createDirectories(nodeDir);
    Path configs =
        Files.writeString(
            nodeDir.resolve("configs.yaml"),
            """
            version: v1
            mig-configs:
              mine:
                - devices: [0]
                  mig-enabled: false
                  time-slicing: {replicas: 3}
                - devices: [1]
                  mig-enabled: false
            """);
    Path devicePlugin =
        Files.writeString(
            nodeDir.resolve("time-slicing.yaml"),
            """
            version: v1
            flags:
              migStrategy: mixed
              failOnInitError: true
            sharing:
              timeSlicing:
                renameByDefault: true
                failRequestsGreaterThanOne: true
                resources:
                - name: nvidia.com/gpu
                  replicas: 4
            """);
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIGFILE", configs.toString())
            .withEnvironment("MIGD_CONFIG", "mine")
            .withEnvironment("MIGD_DEVICEPLUGINCONFIG", devicePlugin.toString())
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString());
    try (var daemon = migd.start("serve", "--simulate=T4,T4,T4")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
                assertThat(kubelet.ids("nvidia.com/gpu.shared"))
                    .as("GPU 1, and GPU 2 that no config item selects")
                    .hasSize(8)
                    .allMatch(id -> id.matches("GPU-.+::[0-3]"));
                assertThat(kubelet.ids("nvidia.com/gpu"))
                    .as("the item's own time-slicing wins over the file for GPU 0")
                    .hasSize(3)
                    .allMatch(id -> id.matches("GPU-.+::[0-2]"));
              });
      assertThat(daemon.stdout() + daemon.stderr())
          .contains("\"flags.failOnInitError\" is ignored");
      String layout = "http://127.0.0.1:" + daemon.httpPort() + "/api/v1/layout";
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(get(layout))
                      .contains(
                          "matches the desired layout; its config item's own time-slicing"
                              + " overrides the device-plugin config "
                              + devicePlugin));

      List<String> shared = kubelet.ids("nvidia.com/gpu.shared");
      assertThatThrownBy(() -> allocate("nvidia.com/gpu.shared", shared.get(0), shared.get(1)))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                assertThat(e.getStatus().getDescription())
                    .contains("one replica of nvidia.com/gpu.shared")
                    .contains("failRequestsGreaterThanOne");
              });
      assertThat(
              allocate("nvidia.com/gpu.shared", shared.get(0))
                  .getContainerResponses(0)
                  .getEnvsMap())
          .containsEntry("NVIDIA_VISIBLE_DEVICES", shared.get(0).split("::")[0]);
      List<String> own = kubelet.ids("nvidia.com/gpu");
      assertThat(allocate("nvidia.com/gpu", own.get(0), own.get(1)).getContainerResponsesCount())
          .as("the item's own time-slicing does not refuse two replicas")
          .isEqualTo(1);
    }
  }

  @Test
  void theNodeLabelPicksTheKeyOfAConfigMapDirectory() throws Exception {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of(LABEL, "ts-4", "nvidia.com/mig.config", "all-disabled"))
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    Files.createDirectories(nodeDir);
    Path kubeconfig = nodeDir.resolve("kubeconfig");
    Kubeconfig.write(kubeconfig, client.getConfiguration().getMasterUrl());
    Path configMap = nodeDir.resolve("dp-configs");
    mountConfigMap(
        configMap,
        "..2026_11_26_first",
        Map.of("ts-2", timeSliced(2), "ts-4", timeSliced(4), "bad", timeSliced(1)));
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIGFILEPOLL", "1s")
            .withEnvironment("MIGD_DEVICEPLUGINCONFIG", configMap.toString())
            .withEnvironment("MIGD_DEVICEPLUGINCONFIGDEFAULT", "ts-2")
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString())
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString());
    try (var daemon = migd.start("serve", "--simulate=T4")) {
      awaitReplicas(daemon, 4);

      mountConfigMap(
          configMap,
          "..2026_11_26_second",
          Map.of("ts-2", timeSliced(2), "ts-4", timeSliced(5), "bad", timeSliced(1)));
      awaitReplicas(daemon, 5);

      relabel("\"bad\"");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labels()).as(daemon.stdout()).containsEntry(STATE, "failed"));
      assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
          .hasEntrySatisfying(
              "migd.io/state-reason",
              reason ->
                  assertThat(reason)
                      .contains("dp-configs/bad")
                      .contains("\"sharing.timeSlicing.resources[0].replicas\""));

      relabel("null");
      awaitReplicas(daemon, 2);
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(labels()).containsEntry(STATE, "success"));
      assertThat(daemon.isAlive()).as(daemon.stdout()).isTrue();
    }
  }

  private void awaitReplicas(MigdProcess.Running daemon, int replicas) {
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
              assertThat(kubelet.ids("nvidia.com/gpu"))
                  .as(daemon.stdout())
                  .hasSize(replicas)
                  .allMatch(id -> id.matches("GPU-.+::\\d+"));
            });
  }

  private static String timeSliced(int replicas) {
    return """
        version: v1
        sharing:
          timeSlicing:
            resources:
            - name: nvidia.com/gpu
              replicas: %d
        """
        .formatted(replicas);
  }

  /**
   * Writes the keys as the kubelet mounts a ConfigMap: the files in a timestamped directory, {@code
   * ..data} a symbolic link to it (swapped by a rename), each key a link through {@code ..data}.
   */
  private static void mountConfigMap(Path dir, String version, Map<String, String> keys)
      throws IOException {
    Path data = Files.createDirectories(dir.resolve(version));
    for (var key : keys.entrySet()) {
      Files.writeString(data.resolve(key.getKey()), key.getValue());
    }
    Path next = dir.resolve("..data_tmp");
    Files.deleteIfExists(next);
    Files.createSymbolicLink(next, Path.of(version));
    Files.move(next, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
    for (var key : keys.keySet()) {
      if (!Files.isSymbolicLink(dir.resolve(key))) {
        Files.createSymbolicLink(dir.resolve(key), Path.of("..data", key));
      }
    }
  }

  private AllocateResponse allocate(String resource, String... ids) {
    return kubelet
        .plugin(resource)
        .allocate(
            AllocateRequest.newBuilder()
                .addContainerRequests(
                    ContainerAllocateRequest.newBuilder().addAllDevicesIds(List.of(ids)))
                .build());
  }

  private String get(String url) throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private void relabel(String value) {
    client
        .nodes()
        .withName(NODE)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"" + LABEL + "\":" + value + "}}}");
  }

  private Map<String, String> labels() {
    return client.nodes().withName(NODE).get().getMetadata().getLabels();
  }
}
