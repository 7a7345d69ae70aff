package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.dra.FakeDraKubelet;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import io.migd.sim.SimulatedProc;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} as the node's DRA driver, end to end on simulated GPUs (A100 for the reset
 * path, H100, a T4 as a whole GPU) under {@code all-dynamic}: it registers with the test kubelet
 * over the real sockets, publishes the pool to the API server (the fabric8 mock in CRUD mode,
 * answering as Kubernetes 1.36), and a claim allocated one of the H100's placements is prepared at
 * exactly that placement (NVML shows it, {@code GET /api/v1/gpus} names the claim, the CDI spec
 * names the capability nodes), republished with its UUID, then unprepared.
 */
@EnableKubernetesMockClient(crud = true)
class DraServeIT {
  private static final String NODE = DraServeNode.NODE;
  private static final Duration PATIENCE = DraServeNode.PATIENCE;
  private static final JsonMapper JSON = DraServeNode.JSON;

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void preparesAnAllocatedPlacementAndUnpreparesIt() throws Exception {
    try (var node =
            DraServeNode.create(
                server,
                client,
                nodeDir,
                List.of(
                    new SimulatedProc.Gpu(0, 8, 7),
                    new SimulatedProc.Gpu(1, 8, 7),
                    new SimulatedProc.Gpu(2, 0, 0)));
        var daemon = node.serve("A100-SXM4-40GB,H100-SXM5-80GB,T4");
        var kubelet = node.register()) {
      // the H100's slice, once published: its MIG placements, most preferred first
      ResourceSlice h100 =
          await()
              .atMost(PATIENCE)
              .until(() -> node.deviceSlice("gpu-1-mig-1g10gb-19-"), Optional::isPresent)
              .orElseThrow();
      assertThat(h100.getSpec().getPool().getName()).isEqualTo(NODE);
      // the T4 is a whole GPU, and the A100's MIG devices appear once the loop enabled MIG
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(node.deviceSlice("gpu-2")).isPresent();
                assertThat(node.deviceSlice("gpu-0-mig-1g5gb-19-")).isPresent();
              });

      // the test allocator, as the 1.36 scheduler, over the pool as published (and valid)
      var allocator = new TestAllocator();
      var allocation =
          allocator
              .allocate(
                  TestClaim.of(
                      "pending",
                      new DeviceRequest(
                          "gpu",
                          1,
                          List.of(new DeviceRequest.Selector.TextIs("profile", "3g.40gb")))),
                  node.published())
              .orElseThrow();
      String device = TestAllocator.deviceNames(allocation).getFirst();
      assertThat(device)
          .as("the H100's most preferred 3g.40gb placement (the A100 has no 3g.40gb)")
          .isEqualTo(firstDevice(h100, "gpu-1-mig-3g40gb-"));
      // the API server gives the claim its UID
      String uid = node.createClaim("train", device);
      var claim = Claim.newBuilder().setNamespace("ml").setName("train").setUid(uid).build();
      var dra =
          DRAPluginGrpc.newBlockingStub(kubelet.channel())
              .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);

      var prepared =
          dra.nodePrepareResources(
                  NodePrepareResourcesRequest.newBuilder().addClaims(claim).build())
              .getClaimsOrThrow(uid);
      assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();
      assertThat(prepared.getDevicesList())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.getPoolName()).isEqualTo(NODE);
                assertThat(d.getDeviceName()).isEqualTo(device);
                assertThat(d.getRequestNamesList()).containsExactly("gpu");
                assertThat(d.getCdiDeviceIdsList())
                    .containsExactly("k8s.migd.io/claim=" + uid + "-" + device);
              });
      Path spec = node.cdiSpec(uid);
      assertThat(spec)
          .content()
          .contains("/dev/nvidia-caps/nvidia-cap")
          .contains("/dev/nvidia1")
          .as("the common edits of the GPU spec nvidia-ctk generated (the stand-in)")
          .contains("containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05")
          .contains("update-ldcache");
      assertThat(node.gpuSpec()).content().contains("kind: k8s.migd.io/gpu");

      // NVML has the instance at the allocated placement, and GET /api/v1/gpus names the claim
      int start = Integer.parseInt(device.substring(device.lastIndexOf('-') + 1));
      JsonNode slice = node.claimedSlice(daemon, 1, "train").orElseThrow();
      assertThat(slice.path("placement").path("start").asInt()).isEqualTo(start);
      assertThat(slice.path("claim").path("name").asText()).isEqualTo("train");
      String migUuid = slice.path("uuid").asText();
      assertThat(migUuid).startsWith("MIG-");

      // the pool is republished with the prepared device's UUID, still valid
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(node.deviceNamed(device).orElseThrow().getAttributes().get("uuid"))
                      .isNotNull()
                      .satisfies(a -> assertThat(a.getString()).isEqualTo(migUuid)));
      assertThat(PoolValidator.problems(node.published())).isEmpty();

      var unprepared =
          dra.nodeUnprepareResources(
                  NodeUnprepareResourcesRequest.newBuilder().addClaims(claim).build())
              .getClaimsOrThrow(uid);
      assertThat(unprepared.getError()).isEmpty();
      assertThat(spec).doesNotExist();
      assertThat(node.claimedSlice(daemon, 1, "train")).isEmpty();
      assertThat(node.gpus(daemon).get(1).path("slices")).isEmpty();

      String metrics = node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus");
      assertThat(metrics)
          .contains("migd_dra_requests_total{operation=\"prepare\",result=\"success\"} 1.0")
          .contains("migd_dra_requests_total{operation=\"unprepare\",result=\"success\"} 1.0")
          .contains("migd_dra_prepare_duration_seconds_count{kind=\"created\"} 1");

      // a new intent turns both MIG GPUs static: two device slices change, so the pool is written
      // again under the next generation, every slice of it, and the static slices carry UUIDs
      long before = node.generation();
      var put =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + daemon.httpPort() + "/api/v1/layout"))
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString("{\"config\": \"all-balanced\"}"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(202);
      // all-balanced: 2 x 1g + 1 x 2g + 1 x 3g on each, in place of every dynamic placement
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(deviceNames("gpu-0-mig-")).hasSize(4);
                assertThat(deviceNames("gpu-1-mig-"))
                    .hasSize(4)
                    .anyMatch(n -> n.startsWith("gpu-1-mig-3g40gb-9-"));
              });
      assertThat(PoolValidator.problems(node.published())).isEmpty();
      long after = node.generation();
      assertThat(after).isGreaterThan(before);
      var slices = client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems();
      assertThat(slices)
          .allSatisfy(s -> assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(after))
          .allSatisfy(
              s ->
                  assertThat(s.getSpec().getPool().getResourceSliceCount())
                      .isEqualTo((long) slices.size()));
      String static3g = deviceNames("gpu-1-mig-3g40gb-9-").stream().findFirst().orElseThrow();
      assertThat(node.deviceNamed(static3g).orElseThrow().getAttributes()).containsKey("uuid");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /** The names of the published devices that start with {@code prefix}. */
  private List<String> deviceNames(String prefix) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(s -> s.getSpec().getDevices() != null)
        .flatMap(s -> s.getSpec().getDevices().stream())
        .map(Device::getName)
        .filter(n -> n.startsWith(prefix))
        .toList();
  }

  private static String firstDevice(ResourceSlice slice, String prefix) {
    return slice.getSpec().getDevices().stream()
        .map(Device::getName)
        .filter(n -> n.startsWith(prefix))
        .findFirst()
        .orElseThrow();
  }
}
