package io.migd.cli;

import static io.migd.cli.DraServeNode.PATIENCE;
import static io.migd.cli.DraServeNode.prepare;
import static io.migd.cli.DraServeNode.unprepare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Device;
import io.migd.dra.FakeDraKubelet;
import io.migd.sim.SimulatedProc;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN section 2, NVML first: MIG GPUs the built-in catalogue lacks, given to the simulator
 * through {@code NVML_SIM_MODELS} (an H100 PCIe-like Hopper whose GPU-instance ids follow the
 * swapped halves, and an Ampere one), under {@code all-dynamic} in dra mode on one {@code migd
 * serve}. NVML says both are MIG-capable and which architecture each has: the Hopper is published
 * and prepared whole and as MIG devices (its MIG mode follows the claims), the Ampere one gets MIG
 * enabled by the loop and publishes its MIG devices, never the whole GPU.
 */
@EnableKubernetesMockClient(crud = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UncataloguedGpuDraIT {
  static final Path MODELS_FILE = Path.of("..", "test-fixtures", "models", "uncatalogued.tsv");

  static KubernetesMockServer server;
  static KubernetesClient client;
  @TempDir static Path nodeDir;

  private static DraServeNode node;
  private static MigdProcess.Running daemon;
  private static FakeDraKubelet.Plugin kubelet;

  @BeforeAll
  static void serve() throws Exception {
    node =
        DraServeNode.create(
                server,
                client,
                nodeDir,
                List.of(new SimulatedProc.Gpu(0, 8, 7), new SimulatedProc.Gpu(1, 8, 7)))
            .withEnvironment("NVML_SIM_MODELS", MODELS_FILE.toAbsolutePath().toString());
    daemon = node.serve("H100-PCIE-SIM,A100-PCIE-SIM");
    kubelet = node.register();
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(node.deviceNamed("gpu-0")).as(daemon.stderr()).isPresent();
              assertThat(node.deviceSlice("gpu-0-mig-1g10gb-19-")).isPresent();
              // the Ampere one's MIG devices once the loop enabled MIG (reset path)
              assertThat(node.deviceSlice("gpu-1-mig-1g5gb-19-")).isPresent();
            });
  }

  @AfterAll
  static void stop() throws Exception {
    if (kubelet != null) {
      kubelet.close();
    }
    if (daemon != null) {
      daemon.close();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  @Order(1)
  void theHopperIsPreparedWholeWithMigModeOff() throws Exception {
    String uid = node.createClaim("whole", "gpu-0");
    var whole = prepare(kubelet, "whole", uid);

    assertThat(whole.getError()).as(daemon.stderr()).isEmpty();
    assertThat(whole.getDevicesList()).extracting(Device::getDeviceName).containsExactly("gpu-0");
    // as NVML shows it (the daemon's view: the test's own nvml-sim knows no extra models)
    var h100 = node.gpus(daemon).get(0);
    assertThat(h100.path("model").asText()).isEqualTo("NVIDIA H100 PCIe");
    assertThat(h100.path("migMode").path("current").asBoolean()).isFalse();
    assertThat(h100.path("slices")).isEmpty();
    assertThat(unprepare(kubelet, "whole", uid).getError()).isEmpty();
  }

  @Test
  @Order(2)
  void theHopperIsPreparedAsAMigDeviceWithItsSwappedGpuInstanceIds() throws Exception {
    String device = node.allocate("3g.40gb");
    assertThat(device).startsWith("gpu-0-mig-3g40gb-9-");
    String uid = node.createClaim("mig", device);
    var prepared = prepare(kubelet, "mig", uid);

    assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();
    assertThat(prepared.getDevicesList()).extracting(Device::getDeviceName).containsExactly(device);
    assertThat(node.gpus(daemon).get(0).path("slices")).hasSize(1);
    var slice = node.claimedSlice(daemon, 0, "mig").orElseThrow();
    int start = slice.path("placement").path("start").asInt();
    // swapped halves: the 4-slice half at 0 is GPU instance 2, the one at 4 is 1
    assertThat(slice.path("gpuInstanceId").asInt()).isEqualTo(start == 0 ? 2 : 1);
    assertThat(unprepare(kubelet, "mig", uid).getError()).isEmpty();
  }

  @Test
  @Order(3)
  void theAmpereOneIsPreparedAsAMigDeviceAndNeverOfferedWhole() throws Exception {
    assertThat(node.deviceNamed("gpu-1")).isEmpty();
    String device = node.allocate("1g.5gb");
    assertThat(device).startsWith("gpu-1-mig-1g5gb-");
    String uid = node.createClaim("ampere", device);
    var prepared = prepare(kubelet, "ampere", uid);

    assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();
    var slices = node.gpus(daemon).get(1).path("slices");
    assertThat(slices).hasSize(1);
    assertThat(slices.get(0).path("profile").asText()).isEqualTo("1g.5gb");
    assertThat(unprepare(kubelet, "ampere", uid).getError()).isEmpty();
  }

  @Test
  @Order(4)
  void metricsShowBothGpusAndTheirFreePlacements() throws Exception {
    String metrics = node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus");
    assertThat(metrics)
        .containsPattern("migd_gpu_info\\{[^}]*model=\"NVIDIA H100 PCIe\"")
        .containsPattern("migd_gpu_info\\{[^}]*model=\"NVIDIA A100-PCIE-40GB\"")
        .containsPattern(
            "migd_dra_free_placements\\{[^}]*gpu=\"0\"[^}]*profile=\"1g.10gb\"[^}]*} [1-9][0-9.]*")
        .containsPattern(
            "migd_dra_free_placements\\{[^}]*gpu=\"1\"[^}]*profile=\"1g.5gb\"[^}]*} [1-9][0-9.]*");
  }
}
