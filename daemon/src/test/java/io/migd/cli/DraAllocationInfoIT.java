package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.dra.FakeDraKubelet;
import io.migd.sim.AllocatedClaims;
import io.migd.sim.SimulatedProc;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who holds a DRA slice (issue 18 item 8), end to end: {@code migd serve} in dra mode on a
 * simulated H100 prepares a claim made from a pod's ResourceClaimTemplate, reserved for that pod,
 * two of whose three containers reference it. {@code migd_device_allocation_info} names both
 * containers, the claim's DeviceClass and the dynamic slice's MIG UUID, and {@code GET
 * /api/v1/gpus} lists the pod under the slice's claim.
 */
@EnableKubernetesMockClient(crud = true)
class DraAllocationInfoIT {
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final String NODE = DraServeNode.NODE;
  private static final String DRIVER = "gpu.nvidia.com";
  private static final String CLAIM = "job-gpu-x7k2";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void namesThePodAndEachContainerThatReferencesAPreparedClaim() throws Exception {
    try (var node =
            DraServeNode.create(server, client, nodeDir, List.of(new SimulatedProc.Gpu(0, 8, 7)));
        var daemon = node.serve("H100-SXM5-80GB")) {
      var kubelet = node.register();
      String device =
          await()
              .atMost(PATIENCE)
              .until(() -> deviceSlice("gpu-0-mig-3g40gb-"), Optional::isPresent)
              .map(s -> firstDevice(s, "gpu-0-mig-3g40gb-"))
              .orElseThrow();

      String podUid = createPod();
      String uid = createClaim(device, podUid);
      var claim = Claim.newBuilder().setNamespace("ml").setName(CLAIM).setUid(uid).build();
      var prepared =
          DRAPluginGrpc.newBlockingStub(kubelet.channel())
              .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS)
              .nodePrepareResources(
                  NodePrepareResourcesRequest.newBuilder().addClaims(claim).build())
              .getClaimsOrThrow(uid);
      assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();

      JsonNode slice = node.claimedSlice(daemon, 0, CLAIM).orElseThrow();
      String migUuid = slice.path("uuid").asText();
      assertThat(migUuid).startsWith("MIG-");
      JsonNode pods = slice.path("claim").path("pods");
      assertThat(pods).hasSize(1);
      assertThat(pods.get(0).path("namespace").asText()).isEqualTo("ml");
      assertThat(pods.get(0).path("name").asText()).isEqualTo("job");
      assertThat(pods.get(0).path("uid").asText()).isEqualTo(podUid);
      assertThat(pods.get(0).path("containers"))
          .extracting(JsonNode::asText)
          .containsExactly("trainer", "exporter");

      String metrics = node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus");
      assertThat(allocationLines(metrics))
          .hasSize(2)
          .allSatisfy(
              line ->
                  assertThat(line)
                      .contains("resource=\"mig.nvidia.com\"")
                      .contains("device_id=\"" + migUuid + "\"")
                      .contains("gpu=\"0\"")
                      .contains("namespace=\"ml\"")
                      .contains("pod=\"job\""))
          .anySatisfy(line -> assertThat(line).contains("container=\"trainer\""))
          .anySatisfy(line -> assertThat(line).contains("container=\"exporter\""));
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /** The pod: its claim comes from a template (the status names it); two containers use it. */
  private String createPod() {
    return client
        .pods()
        .inNamespace("ml")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withNamespace("ml")
                .withName("job")
                .endMetadata()
                .withNewSpec()
                .withNodeName(NODE)
                .addNewResourceClaim()
                .withName("gpu")
                .withResourceClaimTemplateName("one-slice")
                .endResourceClaim()
                .addNewContainer()
                .withName("trainer")
                .withNewResources()
                .addNewClaim()
                .withName("gpu")
                .endClaim()
                .endResources()
                .endContainer()
                .addNewContainer()
                .withName("logger")
                .endContainer()
                .addNewContainer()
                .withName("exporter")
                .withNewResources()
                .addNewClaim()
                .withName("gpu")
                .endClaim()
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .addNewResourceClaimStatus()
                .withName("gpu")
                .withResourceClaimName(CLAIM)
                .endResourceClaimStatus()
                .endStatus()
                .build())
        .create()
        .getMetadata()
        .getUid();
  }

  private String createClaim(String device, String podUid) {
    return client
        .resource(
            AllocatedClaims.builder("ml", CLAIM, DRIVER, NODE, List.of(device))
                .editStatus()
                .addNewReservedFor()
                .withResource("pods")
                .withName("job")
                .withUid(podUid)
                .endReservedFor()
                .endStatus()
                .build())
        .create()
        .getMetadata()
        .getUid();
  }

  private static List<String> allocationLines(String metrics) {
    return metrics.lines().filter(l -> l.startsWith("migd_device_allocation_info{")).toList();
  }

  private Optional<ResourceSlice> deviceSlice(String devicePrefix) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(
            s ->
                s.getSpec().getDevices() != null
                    && s.getSpec().getDevices().stream()
                        .anyMatch(d -> d.getName().startsWith(devicePrefix)))
        .findFirst();
  }

  private static String firstDevice(ResourceSlice slice, String prefix) {
    return slice.getSpec().getDevices().stream()
        .map(Device::getName)
        .filter(n -> n.startsWith(prefix))
        .findFirst()
        .orElseThrow();
  }
}
