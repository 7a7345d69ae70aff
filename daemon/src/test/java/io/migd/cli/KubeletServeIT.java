package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.deviceplugin.v1beta1.Device;
import io.migd.api.deviceplugin.v1beta1.NUMANode;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} as a kubelet sees it: a fake kubelet in a temp device-plugin directory gets
 * every resource registered with the slices the config makes, the GPU spec ({@code nvidia-ctk}'s,
 * the stand-in) names every slice it is shown and Allocate answers its CDI name, each device
 * carries its GPU's NUMA node from {@code migd.sysfs-root}, an XID injected with {@code nvml-sim}
 * reaches the stream, and the metrics count free, allocated and unhealthy devices and name the pod
 * holding one.
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
  void servesTheKubeletAndCountsWhatItSees() throws Exception {
    Path cdi = nodeDir.resolve("cdi");
    Path sysfs = nodeDir.resolve("sys");
    // the simulator puts GPU i on bus 0x10 * i + 7: the A100 on NUMA node 1, the T4 on node 0
    numaNode(sysfs, "0000:07:00.0", "1");
    numaNode(sysfs, "0000:17:00.0", "0");
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIG", "all-1g.5gb")
            .withEnvironment("MIGD_RECONCILE_RESYNC", "1s")
            .withCdi(cdi)
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString())
            .withEnvironment("MIGD_SYSFSROOT", sysfs.toString())
            .withEnvironment(
                "MIGD_KUBELET_PODRESOURCESSOCKET",
                pluginDir.resolve("pod-resources.sock").toString());
    var started = new AtomicReference<MigdProcess.Running>();
    var answersAtRegistration = new CopyOnWriteArrayList<String>();
    kubelet.onRegister(() -> answersAtRegistration.add(probeHealth(started.get())));
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,T4")) {
      started.set(daemon);
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
      assertThat(kubelet.latest("nvidia.com/mig-1g.5gb").orElseThrow().getDevicesList())
          .allSatisfy(d -> assertThat(numaNodes(d)).containsExactly(1L));
      assertThat(kubelet.latest("nvidia.com/gpu").orElseThrow().getDevicesList())
          .allSatisfy(d -> assertThat(numaNodes(d)).containsExactly(0L));
      assertThat(answersAtRegistration)
          .as("what /actuator/health answered while the kubelet took each registration")
          .isNotEmpty()
          .allMatch(answer -> answer.startsWith("HTTP "));
      String slice = kubelet.ids("nvidia.com/mig-1g.5gb").getFirst();
      assertThat(cdi.resolve("k8s.migd.io-gpu.yaml"))
          .as("generated before the slices were advertised")
          .content()
          .contains("kind: k8s.migd.io/gpu", "name: " + slice);
      var allocated =
          kubelet
              .plugin("nvidia.com/mig-1g.5gb")
              .allocate(
                  AllocateRequest.newBuilder()
                      .addContainerRequests(
                          ContainerAllocateRequest.newBuilder().addDevicesIds(slice))
                      .build());
      assertThat(allocated.getContainerResponses(0).getCdiDevicesList())
          .extracting(d -> d.getName())
          .containsExactly("k8s.migd.io/gpu=" + slice);

      podResources.answer(
          FakePodResources.onePod("ml", "trainer-0", "main", "nvidia.com/mig-1g.5gb", slice));
      String metrics = "http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus";
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(get(metrics).body())
                      .contains(
                          "migd_devices{resource=\"nvidia.com/mig-1g.5gb\",state=\"free\"} 6.0")
                      .contains(
                          "migd_devices{resource=\"nvidia.com/mig-1g.5gb\",state=\"allocated\"} 1.0")
                      .contains("migd_devices{resource=\"nvidia.com/gpu\",state=\"free\"} 1.0")
                      .contains(
                          "migd_device_allocation_info{container=\"main\",device_id=\""
                              + slice
                              + "\",gpu=\"0\",namespace=\"ml\",pod=\"trainer-0\","
                              + "resource=\"nvidia.com/mig-1g.5gb\"} 1\n"));

      var nvmlSim = NvmlSimCommand.extract(nodeDir.resolve("nvml-sim"));
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                nvmlSim.run(migd.stateFile(), "xid", "--gpu", "1", "--xid", "79");
                assertThat(kubelet.latest("nvidia.com/gpu").orElseThrow().getDevices(0).getHealth())
                    .isEqualTo("Unhealthy");
              });
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(get(metrics).body())
                      .contains(
                          "migd_devices{resource=\"nvidia.com/gpu\",state=\"unhealthy\"} 1.0"));
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  private static void numaNode(Path sysfs, String busId, String node) throws IOException {
    Path device = Files.createDirectories(sysfs.resolve("bus/pci/devices").resolve(busId));
    Files.writeString(device.resolve("numa_node"), node + "\n");
  }

  private static List<Long> numaNodes(Device device) {
    return device.getTopology().getNodesList().stream().map(NUMANode::getID).toList();
  }

  /**
   * {@code HTTP <status>} of {@code /actuator/health}, or why there was none: the daemon has not
   * said it listens yet, or what stopped the request.
   */
  private String probeHealth(MigdProcess.Running daemon) {
    if (daemon == null) {
      return "migd not started";
    }
    OptionalInt port = daemon.httpPortIfListening();
    if (port.isEmpty()) {
      return "not listening: no 'http listening' line yet";
    }
    try {
      return "HTTP " + get("http://127.0.0.1:" + port.getAsInt() + "/actuator/health").statusCode();
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
