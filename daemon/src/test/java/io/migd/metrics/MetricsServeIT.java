package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} on four simulated GPUs (two A100-SXM4-40GB reshaped from MIG off to 4 x 1g.5gb
 * + 1 x 3g.20gb, two T4 time-sliced four ways), a pod holding one slice, a process in another, and
 * an NVML fault on the last T4's utilisation: every metric of the contract is on
 * /actuator/prometheus with its labels and the values the node has, and the faulty GPU's series are
 * left out of the scrape while the others stay.
 */
class MetricsServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final long MIB = 1024L * 1024;

  static final String CONFIG =
      """
      version: v1
      mig-configs:
        metrics-it:
          - devices: [0, 1]
            mig-enabled: true
            mig-devices: {"1g.5gb": 4, "3g.20gb": 1}
          - devices: [2, 3]
            mig-enabled: false
            time-slicing: {replicas: 4}
      """;

  @TempDir static Path nodeDir;
  private static Path pluginDir;
  private static FakeKubelet kubelet;
  private static FakePodResources podResources;
  private static MigdProcess.Running daemon;
  private static String metricsUrl;
  private static final HttpClient http = HttpClient.newHttpClient();

  /** The GPU instance that the test's process runs in, and the MIG device the pod holds. */
  private static String busyGpuInstance;

  private static String heldSlice;

  @BeforeAll
  static void startNode() throws Exception {
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "migd-metrics");
    kubelet = FakeKubelet.start(pluginDir);
    podResources = FakePodResources.start(pluginDir.resolve("pod-resources.sock"));
    Path configFile = nodeDir.resolve("configs.yaml");
    Files.writeString(configFile, CONFIG);
    int port = freePort();
    metricsUrl = "http://127.0.0.1:" + port + "/actuator/prometheus";
    daemon =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", Integer.toString(port))
            .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
            .withEnvironment("MIGD_CONFIG", "metrics-it")
            .withEnvironment("MIGD_RECONCILE_RESYNC", "1s")
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString())
            .withEnvironment(
                "MIGD_KUBELET_PODRESOURCESSOCKET",
                pluginDir.resolve("pod-resources.sock").toString())
            .withEnvironment(
                "NVML_SIM_FAULTS", "nvmlDeviceGetUtilizationRates@3=NVML_ERROR_GPU_IS_LOST")
            .start("serve", "--simulate=A100-SXM4-40GB,A100-SXM4-40GB,T4,T4");
    Scrape first =
        await()
            .atMost(PATIENCE)
            .ignoreExceptions()
            .until(MetricsServeIT::scrape, s -> s.value("migd_layout_in_sync", Map.of()) == 1);
    var slices = first.named("migd_slice_info", Map.of("gpu", "0", "profile", "1g.5gb"));
    heldSlice = slices.getFirst().labels().get("uuid");
    busyGpuInstance = slices.getLast().labels().get("gpu_instance");
    podResources.answer(
        FakePodResources.onePod("ml", "trainer-0", "main", "nvidia.com/mig-1g.5gb", heldSlice));
    nvmlSim("attach", "--gpu", "0", "--gi", busyGpuInstance, "--pid", "4242", "--mem", "1024");
  }

  @AfterAll
  static void stopNode() throws Exception {
    if (daemon != null) {
      daemon.close();
    }
    podResources.close();
    kubelet.close();
    FakeKubelet.deleteEveryFile(pluginDir);
    Files.deleteIfExists(pluginDir);
  }

  @Test
  void exportsEveryMetricWithTheContractsLabels() {
    Scrape scrape = settledScrape();
    for (Metric metric : Metric.values()) {
      String series =
          metric.type() == Metric.Type.HISTOGRAM
              ? metric.prometheusName() + "_bucket"
              : metric.prometheusName();
      var samples = scrape.named(series);
      assertThat(samples).as(series).isNotEmpty();
      Set<String> expected = new HashSet<>(metric.labels());
      if (metric.type() == Metric.Type.HISTOGRAM) {
        expected.add("le");
      }
      assertThat(samples)
          .as(series)
          .allSatisfy(s -> assertThat(s.labels().keySet()).isEqualTo(expected));
    }
  }

  @Test
  void countsSlicesPerProfileAsTheLayoutHasThem() {
    Scrape scrape = settledScrape();
    for (String gpu : List.of("0", "1")) {
      Map<String, Long> perProfile =
          scrape.named("migd_slice_info", Map.of("gpu", gpu)).stream()
              .collect(
                  Collectors.groupingBy(
                      s -> s.labels().get("profile"), TreeMap::new, Collectors.counting()));
      assertThat(perProfile).as("GPU " + gpu).isEqualTo(Map.of("1g.5gb", 4L, "3g.20gb", 1L));
      assertThat(scrape.named("migd_slice_memory_total_bytes", Map.of("gpu", gpu))).hasSize(5);
    }
    assertThat(
            scrape.value("migd_slice_memory_total_bytes", Map.of("gpu", "0", "profile", "3g.20gb")))
        .isGreaterThan(
            3
                * scrape.value(
                    "migd_slice_memory_total_bytes",
                    Map.of("gpu", "0", "gpu_instance", busyGpuInstance)));
    var gpus =
        scrape.named("migd_gpu_info").stream()
            .collect(Collectors.toMap(s -> s.labels().get("gpu"), s -> s.labels()));
    assertThat(gpus.get("0"))
        .containsEntry("mig_mode", "enabled")
        .containsEntry("mig_capable", "true");
    assertThat(gpus.get("0").get("model")).isEqualTo("NVIDIA A100-SXM4-40GB");
    assertThat(gpus.get("2"))
        .containsEntry("mig_mode", "disabled")
        .containsEntry("mig_capable", "false")
        .containsEntry("model", "Tesla T4");
    assertThat(scrape.named("migd_gpu_utilization_ratio"))
        .singleElement()
        .satisfies(s -> assertThat(s.labels()).containsEntry("gpu", "2"));
  }

  @Test
  void showsTheProcessAndThePodOnTheirSlices() {
    Scrape scrape = settledScrape();
    Map<String, String> busy = Map.of("gpu", "0", "gpu_instance", busyGpuInstance);
    assertThat(scrape.value("migd_slice_processes", busy)).isEqualTo(1);
    assertThat(scrape.value("migd_slice_memory_used_bytes", busy)).isEqualTo(1024 * MIB);
    assertThat(
            scrape.named("migd_slice_processes").stream().mapToDouble(Scrape.Sample::value).sum())
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_device_allocation_info",
                Map.of("device_id", heldSlice, "namespace", "ml", "pod", "trainer-0")))
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_devices", Map.of("resource", "nvidia.com/mig-1g.5gb", "state", "allocated")))
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_devices", Map.of("resource", "nvidia.com/mig-1g.5gb", "state", "free")))
        .isEqualTo(7);
    for (String gpu : List.of("2", "3")) {
      assertThat(
              scrape.value(
                  "migd_shared_devices",
                  Map.of(
                      "gpu",
                      gpu,
                      "gpu_instance",
                      "",
                      "compute_instance",
                      "",
                      "strategy",
                      "time-slicing")))
          .isEqualTo(4);
    }
  }

  @Test
  void timesAndCountsEveryStepOfThePlan() {
    Scrape scrape = settledScrape();
    // from MIG off to five slices on each A100: MIG on, then a GPU and a compute instance each
    Map<String, Double> steps =
        Map.of(
            "enableMig", 2.0,
            "createGpuInstance", 10.0,
            "createComputeInstance", 10.0,
            "disableMig", 0.0,
            "destroyGpuInstance", 0.0,
            "destroyComputeInstance", 0.0,
            "resetGpu", 0.0,
            "reboot", 0.0);
    steps.forEach(
        (action, count) ->
            assertThat(scrape.value("migd_step_duration_seconds_count", Map.of("action", action)))
                .as(action)
                .isEqualTo(count));
    assertThat(
            scrape.value(
                "migd_step_duration_seconds_bucket",
                Map.of("action", "createGpuInstance", "le", "+Inf")))
        .isEqualTo(10);
    assertThat(scrape.value("migd_instance_creations_total", Map.of("kind", "gpu"))).isEqualTo(10);
    assertThat(scrape.value("migd_instance_creations_total", Map.of("kind", "compute")))
        .isEqualTo(10);
    assertThat(scrape.value("migd_instance_destructions_total", Map.of("kind", "gpu"))).isZero();
    double reconciles = scrape.value("migd_reconcile_total", Map.of("outcome", "success"));
    assertThat(reconciles).isGreaterThanOrEqualTo(1);
    assertThat(scrape.value("migd_reconcile_total", Map.of("outcome", "failed"))).isZero();
    assertThat(scrape.value("migd_reconcile_duration_seconds_count", Map.of()))
        .isGreaterThanOrEqualTo(reconciles);
    assertThat(scrape.value("migd_layout_in_sync", Map.of())).isEqualTo(1);
  }

  @Test
  void leavesOutOnlyTheGpuNvmlFailsOnAndCountsTheFailure() {
    Scrape scrape = settledScrape();
    assertThat(scrape.named("migd_gpu_info"))
        .extracting(s -> s.labels().get("gpu"))
        .containsExactlyInAnyOrder("0", "1", "2");
    assertThat(scrape.named("migd_gpu_memory_total_bytes", Map.of("gpu", "3"))).isEmpty();
    assertThat(scrape.named("migd_gpu_memory_total_bytes")).hasSize(3);
    assertThat(
            scrape.value(
                "migd_nvml_calls_total",
                Map.of(
                    "function",
                    "nvmlDeviceGetUtilizationRates",
                    "result",
                    "NVML_ERROR_GPU_IS_LOST")))
        .isGreaterThanOrEqualTo(1);
    assertThat(
            scrape.value(
                "migd_nvml_calls_total",
                Map.of("function", "nvmlDeviceGetUtilizationRates", "result", "NVML_SUCCESS")))
        .isGreaterThanOrEqualTo(1);
    // the reconciler does not read utilisation: GPU 3 stays time-sliced and in sync
    assertThat(scrape.value("migd_layout_in_sync", Map.of())).isEqualTo(1);
  }

  /** A scrape once the pod and the process show (the pod after the next reconcile). */
  static Scrape settledScrape() {
    return await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(
            MetricsServeIT::scrape,
            s ->
                !s.named("migd_device_allocation_info").isEmpty()
                    && s.named("migd_slice_processes").stream().anyMatch(p -> p.value() == 1));
  }

  static String metricsUrl() {
    return metricsUrl;
  }

  static Scrape scrape() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(metricsUrl)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    return Scrape.parse(response.body());
  }

  private static void nvmlSim(String... args) throws Exception {
    Path cli = SimulatedNvml.extract(Files.createTempDirectory(nodeDir, "nvml-sim")).cliPath();
    var command = new java.util.ArrayList<String>(List.of(cli.toString(), "--state"));
    command.add(nodeDir.resolve("state").toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("NVML_SIM_"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor()).as(output).isZero();
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
