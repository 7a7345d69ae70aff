package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A GPU NVML cannot observe (every {@code nvmlDeviceGetMigMode} on GPU 1 answers {@code
 * GPU_IS_LOST}) is one entry with its error in the read calls; the other GPUs are answered in full,
 * and a dry run still plans them. An NVML that cannot even list the GPUs makes a layout {@code 503}
 * naming the call, never {@code 422} "out of range".
 */
class UnobservableGpuApiIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path nodeDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void oneLostGpuLeavesTheOthersInEveryReadCall() throws Exception {
    try (var daemon =
        serve(
            "nvmlDeviceGetMigMode@1=NVML_ERROR_GPU_IS_LOST",
            "--simulate=A100-SXM4-40GB,A100-SXM4-40GB,T4")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode() == 200);

      HttpResponse<String> gpus = get(base + "/api/v1/gpus");
      assertThat(gpus.statusCode()).as(gpus.body()).isEqualTo(200);
      JsonNode list = JSON.readTree(gpus.body());
      assertThat(list.size()).isEqualTo(3);
      assertThat(list.get(0).path("uuid").asString()).startsWith("GPU-");
      assertThat(list.get(0).path("slices").size()).isEqualTo(4);
      assertThat(list.get(0).has("error")).isFalse();
      assertThat(list.get(1).path("index").asInt()).isEqualTo(1);
      assertThat(list.get(1).path("error").asString())
          .contains("nvmlDeviceGetMigMode")
          .contains("NVML_ERROR_GPU_IS_LOST");
      assertThat(list.get(1).has("uuid")).isFalse();
      assertThat(list.get(2).path("model").asString()).contains("T4");

      HttpResponse<String> configs = get(base + "/api/v1/configs");
      assertThat(configs.statusCode()).as(configs.body()).isEqualTo(200);
      assertThat(configs.body())
          .contains("\"decision\":\"failed\"")
          .contains("observing GPU 1 failed");

      JsonNode layout = JSON.readTree(get(base + "/api/v1/layout").body());
      assertThat(layout.path("state").asString()).isEqualTo("failed");
      assertThat(layout.path("decisions").get(0).path("state").asString()).isEqualTo("success");
      assertThat(layout.path("decisions").get(1).path("decision").asString()).isEqualTo("failed");

      HttpResponse<String> dryRun =
          put(
              base + "/api/v1/layout?dryRun=true",
              "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}");
      assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
      assertThat(dryRun.body()).contains("\"decision\":\"change\"");

      HttpResponse<String> forTheLostGpu =
          put(
              base + "/api/v1/layout",
              "{\"gpus\":[{\"gpu\":1,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}");
      assertThat(forTheLostGpu.statusCode()).as(forTheLostGpu.body()).isEqualTo(503);
      assertThat(forTheLostGpu.body())
          .contains("GPU 1 could not be observed")
          .contains("NVML_ERROR_GPU_IS_LOST")
          .doesNotContain("out of range");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  @Test
  void anExplicitLayoutWhileNvmlCannotListTheGpusIs503NamingTheReason() throws Exception {
    try (var daemon =
        serve("nvmlDeviceGetCount_v2=NVML_ERROR_UNKNOWN", "--simulate=A100-SXM4-40GB,T4")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      JsonNode layout =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(
                  () -> JSON.readTree(get(base + "/api/v1/layout").body()),
                  l -> l.path("outcome").path("state").asString().equals("failed"));
      assertThat(layout.path("outcome").path("reason").asString())
          .contains("nvmlDeviceGetCount_v2");

      HttpResponse<String> explicit =
          put(base + "/api/v1/layout", "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":2}}]}");

      assertThat(explicit.statusCode()).as(explicit.body()).isEqualTo(503);
      assertThat(JSON.readTree(explicit.body()).path("detail").asString())
          .contains("nvmlDeviceGetCount_v2")
          .contains("NVML_ERROR_UNKNOWN")
          .doesNotContain("out of range");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /**
   * {@code migd serve} on the simulated GPUs, with these faults, on a port the kernel picks;
   * kubelet off, all-balanced.
   */
  private MigdProcess.Running serve(String faults, String simulate) {
    return MigdProcess.on(nodeDir)
        .withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_KUBELET_ENABLED", "false")
        .withEnvironment("MIGD_CONFIG", "all-balanced")
        .withEnvironment("NVML_SIM_FAULTS", faults)
        .start("serve", simulate);
  }

  private HttpResponse<String> put(String url, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
