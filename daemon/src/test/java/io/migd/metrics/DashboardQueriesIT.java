package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.cli.DraServeNode;
import io.migd.cli.MigdProcess;
import io.migd.dra.FakeDraKubelet;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus (Debian's {@code prometheus}, run as a plain process) scrapes {@code migd
 * serve} on simulated GPUs every second, with the {@code node} label the chart's ServiceMonitor
 * adds; then every query of every dashboard in grafana/ (variables substituted as Grafana would for
 * that node and all GPUs) returns data, and every alert expression of the chart parses. The queries
 * of the DRA dashboard (tagged {@code dra}) run against a second {@code migd serve}, in kubelet
 * mode {@code dra} against the fabric8 mock API server and the test kubelet, on which a claim was
 * prepared, unprepared, prepared again (its idle instance reused) and a claim that does not exist
 * failed, and a share of a shareable twin prepared (where the MPS supervisor can run). Skipped with
 * one line when prometheus is not installed ({@code .ci/run} installs it).
 */
@EnableKubernetesMockClient(crud = true)
class DashboardQueriesIT {
  private static final String NODE = "sim-node-1";
  private static final String DRA_NODE = DraServeNode.NODE;
  private static final Path PROMETHEUS =
      List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)).stream()
          .map(dir -> Path.of(dir, "prometheus"))
          .filter(Files::isExecutable)
          .findFirst()
          .orElse(null);
  private static final String NO_PROMETHEUS =
      "prometheus is not on the PATH: the dashboard queries are not run (apt-get install"
          + " prometheus)";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern LISTENING =
      Pattern.compile("msg=\"Listening on\" address=127\\.0\\.0\\.1:(\\d+)");

  static {
    if (PROMETHEUS == null) {
      // Surefire's summary counts skipped tests without their reason: say it once on the console.
      System.err.println("DashboardQueriesIT skipped: " + NO_PROMETHEUS);
    }
  }

  @TempDir static Path dir;
  private static MetricsNode node;
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static DraServeNode draNode;
  private static MigdProcess.Running draDaemon;
  private static FakeDraKubelet.Plugin draKubelet;
  private static Process prometheus;
  // a share starts an MPS daemon: the supervisor needs root and unshare (CI has both)
  private static final boolean shares = MpsSupervisor.unavailable().isEmpty();
  private static Path mpsRoot;
  private static MpsSupervisor supervisor;
  private static String api;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void startNodeAndPrometheus() throws Exception {
    assumeTrue(PROMETHEUS != null, NO_PROMETHEUS);
    node = MetricsNode.start(dir.resolve("node"));
    node.settledScrape();
    startDraNode();
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: migd
            metrics_path: /actuator/prometheus
            static_configs:
              - targets: ["%s"]
                labels:
                  node: %s
          - job_name: migd-dra
            metrics_path: /actuator/prometheus
            static_configs:
              - targets: ["%s"]
                labels:
                  node: %s
        """
            .formatted(node.address(), NODE, "127.0.0.1:" + draDaemon.httpPort(), DRA_NODE));
    Path log = dir.resolve("prometheus.log");
    prometheus =
        new ProcessBuilder(
                PROMETHEUS.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"),
                // the kernel picks the port, and Prometheus logs the one it got
                "--web.listen-address=127.0.0.1:0")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    api = "http://127.0.0.1:" + listeningPort(prometheus, log) + "/api/v1/query?query=";
    // two scrapes after the pod and the process showed, so rates over them have two samples
    awaitThreeSamples("migd_device_allocation_info{node=\"" + NODE + "\"}");
    awaitThreeSamples("migd_dra_prepared_devices{node=\"" + DRA_NODE + "\"}");
  }

  /**
   * A dra-mode node with one H100, all dynamic, idle instances kept for reuse: a claim prepared
   * (created), unprepared, a second claim of the same device prepared (reused), and a claim the API
   * server does not have (an error), so every series of the DRA dashboard has moved.
   */
  private static void startDraNode() throws Exception {
    Path draDir = Files.createDirectories(dir.resolve("dra"));
    draNode =
        DraServeNode.create(server, client, draDir, List.of(new SimulatedProc.Gpu(0, 8, 7)))
            .withEnvironment("MIGD_DRA_RECLAIMAFTER", "1h");
    if (shares) {
      // the shares panels: the H100's twins, one share prepared, its daemon run by the supervisor
      mpsRoot = Files.createTempDirectory(Path.of("/tmp"), "migd-mps");
      var sim = SimulatedNvml.extract(draDir.resolve("mps-sim"));
      Path config =
          Files.writeString(
              draDir.resolve("shares.yaml"),
              """
              version: v1
              mig-configs:
                shared:
                  - devices: all
                    mig-enabled: true
                    dynamic: true
                    shares: true
              """);
      draNode =
          draNode
              .withSharesGatesOpen(server)
              .withEnvironment("MIGD_CONFIGFILE", config.toString())
              .withEnvironment("MIGD_CONFIG", "shared")
              .withEnvironment("MIGD_MPS_CONTROLCOMMAND", sim.mpsControlPath().toString())
              .withEnvironment("MIGD_MPS_ROOT", mpsRoot.toString());
      supervisor =
          MpsSupervisor.start(mpsRoot, sim, draNode.stateFile(), draDir.resolve("supervisor.log"));
    }
    draDaemon = draNode.serve("H100-SXM5-80GB");
    draKubelet = draNode.register();
    String device =
        await()
            .atMost(MetricsNode.PATIENCE)
            .ignoreExceptions()
            .until(() -> draNode.allocate("1g.10gb"), d -> d != null);
    String first = draNode.createClaim("first", device);
    assertThat(DraServeNode.prepare(draKubelet, "first", first).getError()).isEmpty();
    assertThat(DraServeNode.unprepare(draKubelet, "first", first).getError()).isEmpty();
    String second = draNode.createClaim("second", device);
    assertThat(DraServeNode.prepare(draKubelet, "second", second).getError()).isEmpty();
    assertThat(DraServeNode.prepare(draKubelet, "ghost", "uid-of-no-claim").getError())
        .isNotEmpty();
    if (shares) {
      String twin = "gpu-0-mig-2g20gb-14-0-shared";
      await()
          .atMost(MetricsNode.PATIENCE)
          .untilAsserted(() -> assertThat(draNode.deviceNamed(twin)).isPresent());
      String share =
          draNode.createShareClaim(
              "share", twin, "6de5d941-c79d-4a8a-ba10-668351620525", "8Gi", "25");
      assertThat(DraServeNode.prepare(draKubelet, "share", share).getError()).isEmpty();
    }
  }

  /** Waits until Prometheus holds three samples of the series within the last minute. */
  private static void awaitThreeSamples(String series) {
    await()
        .atMost(MetricsNode.PATIENCE)
        .ignoreExceptions()
        .until(
            () ->
                query("count_over_time(" + series + "[1m])")
                    .path("data")
                    .path("result")
                    .path(0)
                    .path("value")
                    .path(1)
                    .asString(),
            samples -> Integer.parseInt(samples) >= 3);
  }

  @AfterAll
  static void stop() throws Exception {
    if (prometheus != null) {
      prometheus.destroy();
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly();
      }
    }
    if (node != null) {
      node.close();
    }
    if (draKubelet != null) {
      draKubelet.close();
    }
    if (draDaemon != null) {
      draDaemon.close();
    }
    if (draNode != null) {
      draNode.close();
    }
    if (supervisor != null) {
      supervisor.close();
    }
    if (mpsRoot != null) {
      try (Stream<Path> files = Files.walk(mpsRoot)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  @Test
  void everyDashboardQueryReturnsDataForTheNode() throws Exception {
    var queries = Dashboards.queries();
    assertThat(queries).hasSizeGreaterThan(20);
    for (Dashboards.Query q : queries) {
      if (!shares && q.expr().contains("migd_dra_share")) {
        System.err.println("DashboardQueriesIT: " + q + " not run: " + MpsSupervisor.unavailable());
        continue;
      }
      String expr = Dashboards.substitute(q.expr(), q.dra() ? DRA_NODE : NODE);
      // a scrape that outlasts its 1 s timeout on a loaded machine marks the target's series
      // stale until the next one succeeds: a query must answer data once the scrapes do
      await()
          .atMost(MetricsNode.PATIENCE)
          .untilAsserted(
              () -> {
                JsonNode answer = query(expr);
                assertThat(answer.path("status").asString())
                    .as(q + ": " + expr + " " + answer)
                    .isEqualTo("success");
                assertThat(answer.path("data").path("result")).as(q + ": " + expr).isNotEmpty();
              });
    }
  }

  @Test
  void everyAlertExpressionParses() throws Exception {
    var alerts = Dashboards.alerts();
    assertThat(alerts).isNotEmpty();
    for (Dashboards.Query q : alerts) {
      JsonNode answer = query(q.expr());
      assertThat(answer.path("status").asString()).as(q + ": " + answer).isEqualTo("success");
    }
  }

  /** One instant query; a query Prometheus cannot parse answers 400 with status "error". */
  private static JsonNode query(String expr) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(api + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  /** The port of Prometheus's {@code msg="Listening on" address=127.0.0.1:N} line, once logged. */
  private static int listeningPort(Process prometheus, Path log) {
    return await()
        .atMost(MetricsNode.PATIENCE)
        .pollInterval(Duration.ofMillis(100))
        .failFast("prometheus ended before it listened", () -> !prometheus.isAlive())
        .until(() -> listening(Files.readString(log)), OptionalInt::isPresent)
        .getAsInt();
  }

  private static OptionalInt listening(String log) {
    Matcher m = LISTENING.matcher(log);
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }
}
