package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.dra.FakeDraKubelet;
import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import io.migd.sim.SimulatedProc;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final String NODE = "gpu-dra-1";
  private static final String DRIVER = "gpu.nvidia.com";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;
  private Path sockets;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void node() throws Exception {
    server.setVersionInfo(
        new VersionInfo.Builder().withMajor("1").withMinor("36").withGitVersion("v1.36.0").build());
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    sockets = Files.createTempDirectory(Path.of("/tmp"), "migd-dra");
  }

  @AfterEach
  void removeSockets() throws Exception {
    try (var paths = Files.walk(sockets)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Test
  void preparesAnAllocatedPlacementAndUnpreparesIt() throws Exception {
    Path kubeconfig =
        Kubeconfig.write(nodeDir.resolve("kubeconfig"), client.getConfiguration().getMasterUrl());
    Path proc = nodeDir.resolve("proc");
    SimulatedProc.write(
        proc,
        List.of(
            new SimulatedProc.Gpu(0, 8, 7),
            new SimulatedProc.Gpu(1, 8, 7),
            new SimulatedProc.Gpu(2, 0, 0)));
    Path cdi = Files.createDirectories(nodeDir.resolve("cdi"));
    Path registry = Files.createDirectories(sockets.resolve("registry"));
    Path plugin = sockets.resolve("plugin");
    var migd =
        MigdProcess.on(nodeDir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString())
            .withEnvironment("MIGD_CONFIG", "all-dynamic")
            .withEnvironment("MIGD_RECONCILE_RESYNC", "2s")
            .withEnvironment("MIGD_KUBELET_MODE", "dra")
            .withEnvironment("MIGD_CDI_ENABLED", "true")
            .withEnvironment("MIGD_CDI_REFRESHCOMMAND", "true")
            .withEnvironment("MIGD_CDI_DIR", cdi.toString())
            .withEnvironment("MIGD_DRA_REGISTRYDIR", registry.toString())
            .withEnvironment("MIGD_DRA_PLUGINDIR", plugin.toString())
            .withEnvironment("MIGD_DRA_PROCROOT", proc.toString())
            .withEnvironment("MIGD_SYSFSROOT", nodeDir.resolve("sys").toString());
    try (var daemon = migd.start("serve", "--simulate=A100-SXM4-40GB,H100-SXM5-80GB,T4")) {
      Path registration = registry.resolve(DRIVER + "-reg.sock");
      var kubelet =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(() -> FakeDraKubelet.register(registration), p -> p != null);
      assertThat(kubelet.info().getEndpoint()).isEqualTo(plugin.resolve("dra.sock").toString());

      // the H100's slice, once published: its MIG placements, most preferred first
      ResourceSlice h100 =
          await()
              .atMost(PATIENCE)
              .until(() -> deviceSlice("gpu-1-mig-1g10gb-19-"), Optional::isPresent)
              .orElseThrow();
      assertThat(h100.getSpec().getPool().getName()).isEqualTo(NODE);
      // the T4 is a whole GPU, and the A100's MIG devices appear once the loop enabled MIG
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(deviceSlice("gpu-2")).isPresent();
                assertThat(deviceSlice("gpu-0-mig-1g5gb-19-")).isPresent();
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
                  published())
              .orElseThrow();
      String device = TestAllocator.deviceNames(allocation).getFirst();
      assertThat(device)
          .as("the H100's most preferred 3g.40gb placement (the A100 has no 3g.40gb)")
          .isEqualTo(firstDevice(h100, "gpu-1-mig-3g40gb-"));
      // the API server gives the claim its UID
      String uid =
          client
              .resource(
                  new ResourceClaimBuilder()
                      .withNewMetadata()
                      .withNamespace("ml")
                      .withName("train")
                      .endMetadata()
                      .withNewSpec()
                      .withNewDevices()
                      .addNewRequest()
                      .withName("gpu")
                      .withNewExactly()
                      .withDeviceClassName("mig.nvidia.com")
                      .endExactly()
                      .endRequest()
                      .endDevices()
                      .endSpec()
                      .withNewStatus()
                      .withNewAllocation()
                      .withNewDevices()
                      .addNewResult()
                      .withRequest("gpu")
                      .withDriver(DRIVER)
                      .withPool(NODE)
                      .withDevice(device)
                      .endResult()
                      .endDevices()
                      .endAllocation()
                      .endStatus()
                      .build())
              .createOr(NonDeletingOperation::update)
              .getMetadata()
              .getUid();
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
                    .contains("k8s.migd.io/claim=" + uid + "-" + device)
                    .anyMatch(id -> id.startsWith("nvidia.com/gpu=GPU-"));
              });
      Path spec = cdi.resolve("k8s.migd.io-claim_" + uid + ".yaml");
      assertThat(spec).content().contains("/dev/nvidia-caps/nvidia-cap").contains("/dev/nvidia1");

      // NVML has the instance at the allocated placement, and GET /api/v1/gpus names the claim
      int start = Integer.parseInt(device.substring(device.lastIndexOf('-') + 1));
      String gpus = "http://127.0.0.1:" + daemon.httpPort() + "/api/v1/gpus";
      JsonNode slice = claimedSlice(get(gpus), 1).orElseThrow();
      assertThat(slice.path("placement").path("start").asInt()).isEqualTo(start);
      assertThat(slice.path("claim").path("name").asText()).isEqualTo("train");
      String migUuid = slice.path("uuid").asText();
      assertThat(migUuid).startsWith("MIG-");

      // the pool is republished with the prepared device's UUID, still valid
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(deviceNamed(device).orElseThrow().getAttributes().get("uuid"))
                      .isNotNull()
                      .satisfies(a -> assertThat(a.getString()).isEqualTo(migUuid)));
      assertThat(PoolValidator.problems(published())).isEmpty();

      var unprepared =
          dra.nodeUnprepareResources(
                  NodeUnprepareResourcesRequest.newBuilder().addClaims(claim).build())
              .getClaimsOrThrow(uid);
      assertThat(unprepared.getError()).isEmpty();
      assertThat(spec).doesNotExist();
      assertThat(claimedSlice(get(gpus), 1)).isEmpty();
      assertThat(JSON.readTree(get(gpus)).get(1).path("slices")).isEmpty();

      String metrics = get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus");
      assertThat(metrics)
          .contains("migd_dra_requests_total{operation=\"prepare\",result=\"success\"} 1.0")
          .contains("migd_dra_requests_total{operation=\"unprepare\",result=\"success\"} 1.0")
          .contains("migd_dra_prepare_duration_seconds_count{kind=\"created\"} 1");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /** The node's pool as the API server has it, checked against the API's rules and limits. */
  private List<PublishedSlice> published() {
    PublishedPool pool = new ResourceSliceReader(client).read(DRIVER, NODE).orElseThrow();
    assertThat(pool.complete()).as("every slice of generation %d", pool.generation()).isTrue();
    var slices =
        pool.content().slices().stream()
            .map(
                s ->
                    new PublishedSlice(
                        DRIVER, NODE, s, pool.generation(), (int) pool.resourceSliceCount()))
            .toList();
    assertThat(PoolValidator.problems(slices)).isEmpty();
    return slices;
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

  private Optional<Device> deviceNamed(String name) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(s -> s.getSpec().getDevices() != null)
        .flatMap(s -> s.getSpec().getDevices().stream())
        .filter(d -> d.getName().equals(name))
        .findFirst();
  }

  private static String firstDevice(ResourceSlice slice, String prefix) {
    return slice.getSpec().getDevices().stream()
        .map(Device::getName)
        .filter(n -> n.startsWith(prefix))
        .findFirst()
        .orElseThrow();
  }

  private static Optional<JsonNode> claimedSlice(String gpusJson, int gpu) throws Exception {
    for (JsonNode s : JSON.readTree(gpusJson).get(gpu).path("slices")) {
      if (s.has("claim")) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  private String get(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
