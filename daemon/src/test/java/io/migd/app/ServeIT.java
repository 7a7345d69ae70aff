package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.cli.NvmlSimCommand;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} on simulated GPUs, as a real process: not ready (and /actuator/health not UP)
 * until the first reconcile has applied the intent; liveness DOWN while no reconcile completes
 * within {@code migd.health.liveness-timeout}, UP again once one does.
 */
class ServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path nodeDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void isNotReadyUntilTheFirstReconcileEndsAndNotLiveWhileRunsStopCompleting() throws Exception {
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIG", "all-balanced")
            // every state-changing NVML call takes 1 s: the first reconcile (9 such calls on the
            // A100) outlasts the start of the web server and the 1 s liveness timeout
            .withEnvironment("NVML_SIM_LATENCY_MS", "1000")
            .withEnvironment("MIGD_HEALTH_LIVENESSTIMEOUT", "1s");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,T4")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      HttpResponse<String> early =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(() -> get(base + "/actuator/health/readiness"), r -> true);
      assertThat(early.statusCode()).as(early.body()).isEqualTo(503);
      assertThat(get(base + "/actuator/health").statusCode()).isEqualTo(503);

      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/liveness").statusCode(), s -> s == 503);

      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode(), s -> s == 200);
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/liveness").statusCode(), s -> s == 200);

      HttpResponse<String> health = get(base + "/actuator/health");
      assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
      assertThat(health.body()).contains("\"state\":\"success\"").contains("\"generation\":1");
      assertThat(migd.stateDir().resolve("intent.json"))
          .content()
          .contains("all-balanced")
          .contains("GPU-");
      assertThat(migd.stateDir().resolve(StateLock.FILE_NAME)).exists();
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  @Test
  void aGpuWhoseUuidNvmlCannotReadFailsAloneAndLivenessStaysUp() throws Exception {
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIG", "all-7g.40gb")
            .withEnvironment("NVML_SIM_FAULTS", "nvmlDeviceGetUUID@1=NVML_ERROR_GPU_IS_LOST")
            // GPU 1 fails every run, so the loop retries every second; each of those runs
            // completes, well within the liveness timeout
            .withEnvironment("MIGD_RECONCILE_MAXBACKOFF", "1s")
            .withEnvironment("MIGD_HEALTH_LIVENESSTIMEOUT", "4s");
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,A100-SXM4-40GB")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode(), s -> s == 200);

      // at least a second between runs: eight of them outlast the liveness timeout twice over
      await().atMost(PATIENCE).ignoreExceptions().until(() -> failedRuns(base), runs -> runs >= 8);
      HttpResponse<String> liveness = get(base + "/actuator/health/liveness");
      assertThat(liveness.statusCode()).as(liveness.body() + daemon.stderr()).isEqualTo(200);

      HttpResponse<String> health = get(base + "/actuator/health");
      assertThat(health.body())
          .contains("\"state\":\"failed\"")
          .contains("GPU 1")
          .contains("nvmlDeviceGetUUID")
          .contains("NVML_ERROR_GPU_IS_LOST");
      var sim = NvmlSimCommand.extract(nodeDir.resolve("sim"));
      assertThat(sim.layouts(migd.stateFile()).get(0))
          .isEqualTo(NvmlSimCommand.GpuLayout.mig("A100-SXM4-40GB", "7g.40gb[7g.40gb]"));
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /**
   * The README's set-up run twice: {@code --simulate} draws new GPUs (new UUIDs) each run, as new
   * or replaced hardware has, and the config persisted by the first run applies to them as a new
   * generation that says which GPU was replaced (DESIGN section 1, replaced GPUs).
   */
  @Test
  void aSecondRunOnNewGpusReshapesThemToThePersistedConfig() throws Exception {
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIG", "all-balanced");
    String firstUuid;
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,T4")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health").body(), b -> b.contains("\"success\""));
      firstUuid = firstGpuUuid(base);
    }
    java.nio.file.Files.delete(migd.stateFile()); // the next --simulate draws new GPUs

    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,T4")) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      HttpResponse<String> health =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(
                  () -> get(base + "/actuator/health"),
                  r -> r.body().contains("\"success\"") || r.body().contains("\"infeasible\""));
      assertThat(health.body()).contains("\"state\":\"success\"").contains("\"generation\":2");
      String secondUuid = firstGpuUuid(base);
      assertThat(secondUuid).isNotEqualTo(firstUuid);
      var sim = NvmlSimCommand.extract(nodeDir.resolve("sim"));
      assertThat(sim.layouts(migd.stateFile()).get(0).instances()).hasSize(4);
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(daemon.stdout() + daemon.stderr())
                      .contains("GPU 0 was replaced: " + firstUuid + " -> " + secondUuid));
    }
  }

  /** The UUID of GPU 0 in {@code GET /api/v1/gpus}. */
  private String firstGpuUuid(String base) throws IOException, InterruptedException {
    var uuid = java.util.regex.Pattern.compile("\"uuid\":\"(GPU-[^\"]+)\"");
    var found = uuid.matcher(get(base + "/api/v1/gpus").body());
    assertThat(found.find()).isTrue();
    return found.group(1);
  }

  /** {@code migd_reconcile_total{outcome="failed"}} as the daemon exports it now. */
  private double failedRuns(String base) throws IOException, InterruptedException {
    return get(base + "/actuator/prometheus")
        .body()
        .lines()
        .filter(line -> line.startsWith("migd_reconcile_total{outcome=\"failed\"}"))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .findFirst()
        .orElse(0);
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
