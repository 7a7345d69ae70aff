package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.cli.NvmlSimCommand;
import io.migd.sim.SimulatedNvml;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * A scrape, {@code GET /api/v1/gpus}, {@code GET /api/v1/configs} and {@code PUT /api/v1/layout}
 * while a GPU reset is still in progress answer instead of waiting for it: the GETs {@code 503}
 * naming the reset, the scrape without the GPU being reset, the PUT accepted (decided over the
 * snapshot). The reset is {@code migd.reset-command} (migd on the simulated library as if it were
 * the driver's), a script that holds until the test lets it go, so both answers provably arrive
 * while the reset is held. A holder NVML does not list (nvidia-persistenced) keeps the A100's MIG
 * mode change pending, which makes migd reset the GPU.
 */
class ResetInProgressServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String HOLDER_PID = "99";

  @TempDir Path nodeDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aScrapeAndAGetAnswerWhileAResetIsHeld() throws Exception {
    NvmlSimCommand nvmlSim =
        NvmlSimCommand.extract(Files.createDirectories(nodeDir.resolve("cli")));
    Path library =
        SimulatedNvml.extract(Files.createDirectories(nodeDir.resolve("driver"))).libraryPath();
    var migd = MigdProcess.on(nodeDir.resolve("node"));
    nvmlSim.run(migd.stateFile(), "init", "--gpus", "A100-SXM4-40GB,T4");
    nvmlSim.run(
        migd.stateFile(),
        "attach",
        "--gpu",
        "0",
        "--holder",
        "--pid",
        HOLDER_PID,
        "--name",
        "persistenced");
    Path started = nodeDir.resolve("reset-started");
    Path release = nodeDir.resolve("reset-release");
    Path done = nodeDir.resolve("reset-done");
    Path script = nodeDir.resolve("reset.sh");
    Files.writeString(
        script,
        String.join(
            "\n",
            "touch '" + started + "'",
            "while [ ! -e '" + release + "' ]; do sleep 0.05; done",
            nvmlSim(nvmlSim, migd, "detach --pid " + HOLDER_PID),
            nvmlSim(nvmlSim, migd, "reset --gpu 0"),
            "touch '" + done + "'",
            ""));
    try (var daemon =
        migd.withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_NVML_LIBRARY", library.toString())
            .withEnvironment("MIGD_NVML_RESETWAIT", "200ms")
            .withEnvironment("MIGD_RESETCOMMAND", "sh," + script + ",{pciBusId}")
            .start("serve")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode() == 200);
      assertThat(scrape(base).named("migd_gpu_info")).hasSize(2);

      HttpResponse<String> put = putLayout(base);
      assertThat(put.statusCode()).as(put.body()).isEqualTo(202);
      await().atMost(PATIENCE).until(() -> Files.exists(started));

      HttpResponse<String> gpus = get(base + "/api/v1/gpus");
      HttpResponse<String> putWhileHeld = putLayout(base);
      HttpResponse<String> configs = get(base + "/api/v1/configs");
      Scrape scrape = scrape(base);

      assertThat(Files.exists(done)).as("the reset is still held").isFalse();
      assertThat(gpus.statusCode()).as(gpus.body()).isEqualTo(503);
      assertThat(gpus.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(gpus.headers().firstValue("Retry-After")).isPresent();
      assertThat(JSON.readTree(gpus.body()).path("detail").asString())
          .contains("GPU 0 (")
          .contains("is being reset")
          .contains("migd.nvml.reset-wait");
      assertThat(configs.statusCode()).as(configs.body()).isEqualTo(503);
      assertThat(putWhileHeld.statusCode()).as(putWhileHeld.body()).isEqualTo(202);
      assertThat(JSON.readTree(configs.body()).path("detail").asString())
          .contains("GPU 0 (")
          .contains("is being reset");
      assertThat(scrape.named("migd_gpu_info", Map.of("gpu", "0"))).isEmpty();
      assertThat(scrape.named("migd_gpu_memory_total_bytes", Map.of("gpu", "0"))).isEmpty();
      assertThat(scrape.named("migd_gpu_info", Map.of("gpu", "1")))
          .singleElement()
          .satisfies(s -> assertThat(s.labels()).containsEntry("model", "Tesla T4"));

      Files.createFile(release);
      var settled =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(
                  () -> get(base + "/api/v1/gpus"),
                  r -> r.statusCode() == 200 && r.body().contains("3g.20gb"));
      assertThat(JSON.readTree(settled.body()).get(0).path("slices").size()).isEqualTo(2);
      assertThat(scrape(base).named("migd_slice_info", Map.of("gpu", "0"))).hasSize(2);
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /** The same layout again: accepted under the next generation. */
  private HttpResponse<String> putLayout(String base) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/api/v1/layout"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .PUT(
                HttpRequest.BodyPublishers.ofString(
                    "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,"
                        + "\"migDevices\":{\"3g.20gb\":2}}]}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** One line of the reset script: nvml-sim on the node's state, as the test runs it. */
  private static String nvmlSim(NvmlSimCommand nvmlSim, MigdProcess migd, String args) {
    return nvmlSim.executable() + " --state '" + migd.stateFile() + "' " + args;
  }

  private Scrape scrape(String base) throws Exception {
    HttpResponse<String> response = get(base + "/actuator/prometheus");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Scrape.parse(response.body());
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
