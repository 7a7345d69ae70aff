package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code migd serve} on four simulated GPUs with something in every metric: two A100-SXM4-40GB
 * reshaped from MIG off to 4 x 1g.5gb + 1 x 3g.20gb each, two T4 time-sliced four ways, a pod
 * holding one slice (fake PodResources), a compute process in another slice, and an NVML fault on
 * the utilisation of the last T4 (GPU 3).
 */
final class MetricsNode implements AutoCloseable {
  static final Duration PATIENCE = Duration.ofSeconds(90);

  private static final String CONFIG =
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

  private final HttpClient http = HttpClient.newHttpClient();
  private final Path nodeDir;
  private final Path pluginDir;
  private final FakeKubelet kubelet;
  private final FakePodResources podResources;
  private final MigdProcess.Running daemon;
  private final int port;

  /** The GPU instance (on GPU 0) the compute process runs in. */
  final String busyGpuInstance;

  /** The MIG device (on GPU 0) the pod holds. */
  final String heldSlice;

  private MetricsNode(Path nodeDir) throws Exception {
    this.nodeDir = Files.createDirectories(nodeDir);
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "migd-metrics");
    kubelet = FakeKubelet.start(pluginDir);
    podResources = FakePodResources.start(pluginDir.resolve("pod-resources.sock"));
    Path configFile = nodeDir.resolve("configs.yaml");
    Files.writeString(configFile, CONFIG);
    daemon =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
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
    port = daemon.httpPort();
    Scrape first =
        await()
            .atMost(PATIENCE)
            .ignoreExceptions()
            .until(this::scrape, s -> s.value("migd_layout_in_sync", Map.of()) == 1);
    var slices = first.named("migd_slice_info", Map.of("gpu", "0", "profile", "1g.5gb"));
    heldSlice = slices.getFirst().labels().get("uuid");
    busyGpuInstance = slices.getLast().labels().get("gpu_instance");
    podResources.answer(
        FakePodResources.onePod("ml", "trainer-0", "main", "nvidia.com/mig-1g.5gb", heldSlice));
    nvmlSim("attach", "--gpu", "0", "--gi", busyGpuInstance, "--pid", "4242", "--mem", "1024");
  }

  /** Starts the node in {@code nodeDir} and waits for its first reconcile. */
  static MetricsNode start(Path nodeDir) throws Exception {
    return new MetricsNode(nodeDir);
  }

  /** The host:port migd serves HTTP on. */
  String address() {
    return "127.0.0.1:" + port;
  }

  /** A scrape once the pod and the process show (the pod after the next reconcile). */
  Scrape settledScrape() {
    return await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(
            this::scrape,
            s ->
                !s.named("migd_device_allocation_info").isEmpty()
                    && s.named("migd_slice_processes").stream().anyMatch(p -> p.value() == 1));
  }

  /** One GET of /actuator/prometheus. */
  Scrape scrape() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://" + address() + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    return Scrape.parse(response.body());
  }

  @Override
  public void close() throws Exception {
    daemon.close();
    podResources.close();
    kubelet.close();
    FakeKubelet.deleteEveryFile(pluginDir);
    Files.deleteIfExists(pluginDir);
  }

  private void nvmlSim(String... args) throws Exception {
    Path cli = SimulatedNvml.extract(Files.createTempDirectory(nodeDir, "nvml-sim")).cliPath();
    var command = new ArrayList<>(List.of(cli.toString(), "--state"));
    command.add(nodeDir.resolve("state").toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("NVML_SIM_"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor()).as(output).isZero();
  }
}
