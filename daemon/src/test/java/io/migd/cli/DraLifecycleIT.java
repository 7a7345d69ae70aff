package io.migd.cli;

import static io.migd.cli.DraServeNode.PATIENCE;
import static io.migd.cli.DraServeNode.prepare;
import static io.migd.cli.DraServeNode.unprepare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.health.v1alpha1.DeviceHealth;
import io.migd.api.dra.health.v1alpha1.HealthStatus;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesResponse;
import io.migd.api.dra.v1.Device;
import io.migd.dra.FakeDraKubelet;
import io.migd.sim.SimulatedProc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dra-mode scenarios of issue 18 ("How to test it") on one {@code migd serve} (A100 for the
 * reset path, H100, a T4 as a whole GPU, under {@code all-dynamic}), in order: a claim on the A100
 * once the loop enabled MIG and the T4 whole; a busy instance survives its unprepare; an XID taints
 * the H100's devices and the taint clears after the recovery period; a claim deleted from the API
 * server is unprepared by the claim check; and last, migd killed with a claim prepared adopts it
 * when started again. Every pool read is checked against the API's rules and limits.
 */
@EnableKubernetesMockClient(crud = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DraLifecycleIT {
  private static final String MODELS = "A100-SXM4-40GB,H100-SXM5-80GB,T4";

  // static: one API server for the class's one daemon
  static KubernetesMockServer server;
  static KubernetesClient client;
  @TempDir static Path nodeDir;

  private static DraServeNode node;
  private static NvmlSimCommand nvmlSim;
  private static MigdProcess.Running daemon;
  private static FakeDraKubelet.Plugin kubelet;
  // every change of these scenarios is confined to one GPU's slice, which DESIGN section 12 updates
  // in place under the same generation: the generation never goes back, and every read is valid
  private static final List<Long> GENERATIONS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void serve() throws Exception {
    nvmlSim = NvmlSimCommand.extract(Files.createDirectories(nodeDir.resolve("cli")));
    node =
        DraServeNode.create(
                server,
                client,
                nodeDir,
                List.of(
                    new SimulatedProc.Gpu(0, 8, 7),
                    new SimulatedProc.Gpu(1, 8, 7),
                    new SimulatedProc.Gpu(2, 0, 0)))
            .withEnvironment("MIGD_DRA_CLAIMCHECK", "2s")
            .withEnvironment("MIGD_HEALTH_RECOVERYPERIOD", "2s");
    daemon = node.serve(MODELS);
    kubelet = node.register();
    // the first pool published, then the A100's MIG devices may come with a later one
    await().atMost(PATIENCE).until(() -> node.deviceSlice("gpu-2").isPresent());
    GENERATIONS.add(node.generation());
    // the A100's MIG devices appear once the loop enabled MIG (reset path), the T4 is whole
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(node.deviceSlice("gpu-0-mig-1g5gb-19-")).isPresent();
              assertThat(node.deviceSlice("gpu-1-mig-1g10gb-19-")).isPresent();
              assertThat(node.deviceSlice("gpu-2")).isPresent();
            });
    GENERATIONS.add(node.generation());
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
  void preparesAnA100PlacementAndTheT4Whole() throws Exception {
    assertThat(nvmlSim.layouts(node.stateFile()).get(0).migCurrent()).isTrue();
    String a100 = node.allocate("1g.5gb");
    assertThat(a100).startsWith("gpu-0-mig-1g5gb-");
    String uid = node.createClaim("a100", a100);
    var prepared = prepare(kubelet, "a100", uid);
    assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();
    assertThat(prepared.getDevicesList()).extracting(Device::getDeviceName).containsExactly(a100);
    JsonNode slice = node.claimedSlice(daemon, 0, "a100").orElseThrow();
    assertThat(slice.path("profile").asText()).isEqualTo("1g.5gb");
    assertThat(nvmlSim.layouts(node.stateFile()).get(0).instances()).contains("1g.5gb[1g.5gb]");

    String t4 = node.createClaim("t4", "gpu-2");
    var whole = prepare(kubelet, "t4", t4);
    assertThat(whole.getError()).as(daemon.stderr()).isEmpty();
    assertThat(whole.getDevicesList()).extracting(Device::getDeviceName).containsExactly("gpu-2");
    assertThat(nvmlSim.layouts(node.stateFile()).get(2))
        .as("no instance made on a whole GPU")
        .satisfies(
            t -> {
              assertThat(t.migCurrent()).isFalse();
              assertThat(t.instances()).isEmpty();
            });
    assertThat(node.cdiSpec(t4)).content().contains("/dev/nvidia2");

    assertThat(unprepare(kubelet, "a100", uid).getError()).isEmpty();
    assertThat(unprepare(kubelet, "t4", t4).getError()).isEmpty();
    assertThat(node.claimedSlice(daemon, 0, "a100")).isEmpty();
    assertThat(node.cdiSpec(uid)).doesNotExist();
    assertThat(node.cdiSpec(t4)).doesNotExist();
    GENERATIONS.add(node.generation());
  }

  @Test
  @Order(2)
  void aBusyInstanceSurvivesItsUnprepare() throws Exception {
    String device = node.allocate("2g.20gb");
    String uid = node.createClaim("busy", device);
    assertThat(prepare(kubelet, "busy", uid).getError()).as(daemon.stderr()).isEmpty();
    JsonNode slice = node.claimedSlice(daemon, 1, "busy").orElseThrow();
    String giId = slice.path("gpuInstanceId").asText();
    nvmlSim.run(
        node.stateFile(),
        "attach",
        "--gpu",
        "1",
        "--gi",
        giId,
        "--pid",
        "4242",
        "--mem",
        "100",
        "--name",
        "trainer");

    var refused = unprepare(kubelet, "busy", uid);
    assertThat(refused.getError()).contains("4242");
    assertThat(node.claimedSlice(daemon, 1, "busy"))
        .as("the claim still owns its instance")
        .hasValueSatisfying(
            s -> assertThat(s.path("uuid").asText()).isEqualTo(slice.path("uuid").asText()));
    assertThat(node.cdiSpec(uid)).exists();

    nvmlSim.run(node.stateFile(), "detach", "--pid", "4242");
    assertThat(unprepare(kubelet, "busy", uid).getError()).isEmpty();
    assertThat(node.claimedSlice(daemon, 1, "busy")).isEmpty();
    assertThat(node.cdiSpec(uid)).doesNotExist();
    GENERATIONS.add(node.generation());
  }

  @Test
  @Order(3)
  void anXidTaintsTheGpuUntilTheRecoveryPeriodEnds() throws Exception {
    List<NodeWatchResourcesResponse> health = kubelet.watchHealth();
    String device = node.allocate("1g.20gb");
    assertThat(device).startsWith("gpu-1-");
    String uid = node.createClaim("sick", device);
    assertThat(prepare(kubelet, "sick", uid).getError()).as(daemon.stderr()).isEmpty();

    nvmlSim.run(node.stateFile(), "xid", "--gpu", "1", "--xid", "79");
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(taints(device))
                  .extracting(DeviceTaint::getKey)
                  .contains(DraServeNode.DRIVER + "/xid");
              assertThat(lastHealth(health, device))
                  .hasValueSatisfying(
                      h -> assertThat(h.getHealth()).isEqualTo(HealthStatus.UNHEALTHY));
            });
    GENERATIONS.add(node.generation());
    node.published();

    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(taints(device)).isEmpty();
              assertThat(lastHealth(health, device))
                  .hasValueSatisfying(
                      h -> assertThat(h.getHealth()).isEqualTo(HealthStatus.HEALTHY));
            });
    assertThat(unprepare(kubelet, "sick", uid).getError()).isEmpty();
    GENERATIONS.add(node.generation());
  }

  @Test
  @Order(4)
  void theClaimCheckUnpreparesADeletedClaim() throws Exception {
    String device = node.allocate("3g.40gb");
    String uid = node.createClaim("gone", device);
    assertThat(prepare(kubelet, "gone", uid).getError()).as(daemon.stderr()).isEmpty();
    String uuid = node.claimedSlice(daemon, 1, "gone").orElseThrow().path("uuid").asText();
    assertThat(node.cdiSpec(uid)).exists();

    node.deleteClaim("gone");
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(node.cdiSpec(uid)).doesNotExist();
              assertThat(node.claimedSlice(daemon, 1, "gone")).isEmpty();
              assertThat(node.gpus(daemon).get(1).path("slices").toString()).doesNotContain(uuid);
            });
    GENERATIONS.add(node.generation());
  }

  @Test
  @Order(5)
  void aClaimPreparedBeforeAKillIsAdoptedAfterTheRestart() throws Exception {
    String device = node.allocate("1g.20gb");
    String uid = node.createClaim("survivor", device);
    var before = prepare(kubelet, "survivor", uid);
    assertThat(before.getError()).as(daemon.stderr()).isEmpty();
    String uuid = node.claimedSlice(daemon, 1, "survivor").orElseThrow().path("uuid").asText();

    kubelet.close();
    ProcessHandle.of(daemon.pid()).orElseThrow().destroyForcibly();
    assertThat(daemon.await().exitStatus()).isEqualTo(MigdProcess.KILLED);

    daemon = node.serve(MODELS);
    kubelet = node.register();
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(node.claimedSlice(daemon, 1, "survivor"))
                    .hasValueSatisfying(s -> assertThat(s.path("uuid").asText()).isEqualTo(uuid)));
    var again = prepare(kubelet, "survivor", uid);
    assertThat(again.getError()).as(daemon.stderr()).isEmpty();
    assertThat(again.getDevicesList()).isEqualTo(before.getDevicesList());
    assertThat(unprepare(kubelet, "survivor", uid).getError()).isEmpty();
    assertThat(node.claimedSlice(daemon, 1, "survivor")).isEmpty();
    assertThat(node.cdiSpec(uid)).doesNotExist();

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(node.deviceNamed(device)).isPresent());
    node.published();
    GENERATIONS.add(node.generation());
    assertThat(GENERATIONS).as("the pool's generations over the run, restart included").isSorted();
    assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
  }

  private static List<DeviceTaint> taints(String device) {
    node.published();
    var taints = node.deviceNamed(device).orElseThrow().getTaints();
    return taints == null ? List.of() : taints;
  }

  private static Optional<DeviceHealth> lastHealth(
      List<NodeWatchResourcesResponse> stream, String device) {
    return stream.reversed().stream()
        .flatMap(r -> r.getDevicesList().stream())
        .filter(d -> d.getDevice().getDeviceName().equals(device))
        .findFirst();
  }
}
