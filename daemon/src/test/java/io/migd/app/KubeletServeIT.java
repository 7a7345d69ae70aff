package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} as a kubelet sees it: a fake kubelet in a temp device-plugin directory gets
 * every resource registered with the slices the config makes, and the metrics count them.
 */
class KubeletServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path nodeDir;
  private Path pluginDir;
  private FakeKubelet kubelet;
  private FakePodResources podResources;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void startKubelet() throws IOException {
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "migd-dp");
    kubelet = FakeKubelet.start(pluginDir);
    podResources = FakePodResources.start(pluginDir.resolve("pod-resources.sock"));
  }

  @AfterEach
  void stopKubelet() throws Exception {
    podResources.close();
    kubelet.close();
    FakeKubelet.deleteEveryFile(pluginDir);
    Files.deleteIfExists(pluginDir);
  }

  @Test
  void registersEachResourceWithTheSlicesTheConfigMadeAndCountsThem() throws Exception {
    int port = freePort();
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", Integer.toString(port))
            .withEnvironment("MIGD_CONFIG", "all-1g.5gb")
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString())
            .withEnvironment(
                "MIGD_KUBELET_PODRESOURCESSOCKET",
                pluginDir.resolve("pod-resources.sock").toString());
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,T4")) {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
                assertThat(kubelet.ids("nvidia.com/mig-1g.5gb"))
                    .hasSize(7)
                    .allMatch(id -> id.startsWith("MIG-"));
                assertThat(kubelet.ids("nvidia.com/gpu"))
                    .singleElement()
                    .asString()
                    .startsWith("GPU-");
              });
      assertThat(kubelet.registeredResources())
          .containsExactlyInAnyOrder("nvidia.com/mig-1g.5gb", "nvidia.com/gpu");

      String metrics = get("http://127.0.0.1:" + port + "/actuator/prometheus").body();
      assertThat(metrics)
          .contains("migd_devices{resource=\"nvidia.com/mig-1g.5gb\",state=\"free\"} 7.0")
          .contains("migd_devices{resource=\"nvidia.com/gpu\",state=\"free\"} 1.0")
          .contains("migd_devices{resource=\"nvidia.com/gpu\",state=\"unhealthy\"} 0.0");
    }
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
