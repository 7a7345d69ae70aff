package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourceResponse;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.dra.FakeDraKubelet;
import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import io.migd.sim.AllocatedClaims;
import io.migd.sim.Kubeconfig;
import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One simulated node for the dra-mode end-to-end ITs: the API server (the fabric8 mock in CRUD
 * mode, answering as Kubernetes 1.36) with the node, the proc tree and CDI directory, and {@code
 * migd serve} in dra mode on it, which the test kubelet registers with over the real sockets. The
 * node's files outlive a daemon, so a test can kill migd and start it again on the same node.
 */
public final class DraServeNode implements AutoCloseable {
  static final Duration PATIENCE = Duration.ofSeconds(120);
  public static final String NODE = "gpu-dra-1";
  static final String DRIVER = "gpu.nvidia.com";
  static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;
  private final Path nodeDir;
  private final Path sockets;
  private final Path cdi;
  private final Path registry;
  private final Path plugin;
  private final MigdProcess migd;
  private final HttpClient http = HttpClient.newHttpClient();

  private DraServeNode(
      KubernetesClient client,
      Path nodeDir,
      Path sockets,
      Path cdi,
      Path registry,
      Path plugin,
      MigdProcess migd) {
    this.client = client;
    this.nodeDir = nodeDir;
    this.sockets = sockets;
    this.cdi = cdi;
    this.registry = registry;
    this.plugin = plugin;
    this.migd = migd;
  }

  /**
   * The node {@code gpu-dra-1} in {@code server}'s API, its files under {@code nodeDir}, GPUs of
   * the minors given (memory and compute slices each, for the proc tree of capability nodes).
   */
  public static DraServeNode create(
      KubernetesMockServer server,
      KubernetesClient client,
      Path nodeDir,
      List<SimulatedProc.Gpu> gpus) {
    try {
      server.setVersionInfo(
          new VersionInfo.Builder()
              .withMajor("1")
              .withMinor("36")
              .withGitVersion("v1.36.0")
              .build());
      client
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
          // the client retries a POST that timed out on a loaded machine: it may exist already
          .createOr(NonDeletingOperation::update);
      // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
      Path sockets = Files.createTempDirectory(Path.of("/tmp"), "migd-dra");
      Path kubeconfig =
          Kubeconfig.write(nodeDir.resolve("kubeconfig"), client.getConfiguration().getMasterUrl());
      Path proc = nodeDir.resolve("proc");
      SimulatedProc.write(proc, gpus);
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
              .withCdi(cdi)
              .withEnvironment("MIGD_DRA_REGISTRYDIR", registry.toString())
              .withEnvironment("MIGD_DRA_PLUGINDIR", plugin.toString())
              .withEnvironment("MIGD_DRA_PROCROOT", proc.toString())
              .withEnvironment(
                  "MIGD_SYSFSROOT", Files.createDirectories(nodeDir.resolve("sys")).toString());
      return new DraServeNode(client, nodeDir, sockets, cdi, registry, plugin, migd);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The same node with one more environment variable for the daemons it starts. */
  public DraServeNode withEnvironment(String name, String value) {
    return new DraServeNode(
        client, nodeDir, sockets, cdi, registry, plugin, migd.withEnvironment(name, value));
  }

  /** The migd command of this node, for a test that starts it itself. */
  MigdProcess migd() {
    return migd;
  }

  /** The simulator's state file of this node. */
  public Path stateFile() {
    return migd.stateFile();
  }

  /** {@code migd serve --simulate=MODELS} on this node. */
  public MigdProcess.Running serve(String models) {
    return migd.start("serve", "--simulate=" + models);
  }

  /** The test kubelet registered with the daemon (waits for its registration socket). */
  public FakeDraKubelet.Plugin register() {
    Path registration = registry.resolve(DRIVER + "-reg.sock");
    var kubelet =
        await()
            .atMost(PATIENCE)
            .ignoreExceptions()
            .until(() -> FakeDraKubelet.register(registration), p -> p != null);
    assertThat(kubelet.info().getEndpoint()).isEqualTo(plugin.resolve("dra.sock").toString());
    return kubelet;
  }

  /** The GPU spec migd generates with {@code nvidia-ctk}. */
  Path gpuSpec() {
    return cdi.resolve("k8s.migd.io-gpu.yaml");
  }

  /** The CDI spec migd writes for the claim. */
  Path cdiSpec(String uid) {
    return cdi.resolve("k8s.migd.io-claim_" + uid + ".yaml");
  }

  /** Allocates one device of {@code profile} with the test allocator over the pool as published. */
  public String allocate(String profile) {
    var allocation =
        new TestAllocator()
            .allocate(
                TestClaim.of(
                    "pending",
                    new DeviceRequest(
                        "gpu", 1, List.of(new DeviceRequest.Selector.TextIs("profile", profile)))),
                published())
            .orElseThrow();
    return TestAllocator.deviceNames(allocation).getFirst();
  }

  /** Creates claim {@code ml/NAME} allocated {@code devices} of this pool; returns its UID. */
  public String createClaim(String name, String... devices) {
    return client
        .resource(AllocatedClaims.of("ml", name, DRIVER, NODE, List.of(devices)))
        // a POST the loaded client retried after its timeout would otherwise get 409
        .createOr(NonDeletingOperation::update)
        .getMetadata()
        .getUid();
  }

  /**
   * Opens the gates of shareable twins (DESIGN section 14) on this node's API server:
   * kube-apiserver v1.36.2 and the Node's kubelet v1.36.2; the daemons started after also get
   * {@code migd.dra.shares=true}.
   */
  public DraServeNode withSharesGatesOpen(KubernetesMockServer server) {
    server.setVersionInfo(
        new VersionInfo.Builder().withMajor("1").withMinor("36").withGitVersion("v1.36.2").build());
    client
        .nodes()
        .withName(NODE)
        .editStatus(
            n ->
                new NodeBuilder(n)
                    .editOrNewStatus()
                    .editOrNewNodeInfo()
                    .withKubeletVersion("v1.36.2")
                    .endNodeInfo()
                    .endStatus()
                    .build());
    return withEnvironment("MIGD_DRA_SHARES", "true");
  }

  /**
   * Creates claim {@code ml/NAME} given a share of {@code twin} as the 1.36 scheduler writes it
   * ({@code shareID}, {@code consumedCapacity}); returns its UID.
   */
  public String createShareClaim(
      String name, String twin, String shareId, String memory, String compute) {
    return client
        .resource(
            AllocatedClaims.requested("ml", name)
                .withNewStatus()
                .withNewAllocation()
                .withNewDevices()
                .addToResults(
                    new DeviceRequestAllocationResultBuilder()
                        .withRequest(AllocatedClaims.REQUEST)
                        .withDriver(DRIVER)
                        .withPool(NODE)
                        .withDevice(twin)
                        .withShareID(shareId)
                        .withConsumedCapacity(
                            Map.of(
                                "memory", new Quantity(memory),
                                "compute", new Quantity(compute),
                                "multiprocessors", new Quantity("0")))
                        .build())
                .endDevices()
                .endAllocation()
                .endStatus()
                .build())
        .createOr(NonDeletingOperation::update)
        .getMetadata()
        .getUid();
  }

  /** Deletes claim {@code ml/NAME} from the API server. */
  void deleteClaim(String name) {
    client
        .dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace("ml")
        .withName(name)
        .delete();
  }

  /** The kubelet's {@code NodePrepareResources} of claim {@code ml/NAME}. */
  public static NodePrepareResourceResponse prepare(
      FakeDraKubelet.Plugin kubelet, String name, String uid) {
    return stub(kubelet)
        .nodePrepareResources(
            NodePrepareResourcesRequest.newBuilder().addClaims(claim(name, uid)).build())
        .getClaimsOrThrow(uid);
  }

  /** The kubelet's {@code NodeUnprepareResources} of claim {@code ml/NAME}. */
  public static NodeUnprepareResourceResponse unprepare(
      FakeDraKubelet.Plugin kubelet, String name, String uid) {
    return stub(kubelet)
        .nodeUnprepareResources(
            NodeUnprepareResourcesRequest.newBuilder().addClaims(claim(name, uid)).build())
        .getClaimsOrThrow(uid);
  }

  private static Claim claim(String name, String uid) {
    return Claim.newBuilder().setNamespace("ml").setName(name).setUid(uid).build();
  }

  private static DRAPluginGrpc.DRAPluginBlockingStub stub(FakeDraKubelet.Plugin kubelet) {
    return DRAPluginGrpc.newBlockingStub(kubelet.channel())
        .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
  }

  /** The node's pool as the API server has it, checked against the API's rules and limits. */
  List<PublishedSlice> published() {
    // a generation being written is incomplete for a moment: read again until it is whole
    PublishedPool pool =
        await()
            .atMost(PATIENCE)
            .until(
                () -> new ResourceSliceReader(client).read(DRIVER, NODE),
                p -> p.isPresent() && p.get().complete())
            .orElseThrow();
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

  /** The published pool's generation. */
  long generation() {
    return new ResourceSliceReader(client).read(DRIVER, NODE).orElseThrow().generation();
  }

  Optional<ResourceSlice> deviceSlice(String devicePrefix) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(
            s ->
                s.getSpec().getDevices() != null
                    && s.getSpec().getDevices().stream()
                        .anyMatch(d -> d.getName().startsWith(devicePrefix)))
        .findFirst();
  }

  public Optional<Device> deviceNamed(String name) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(s -> s.getSpec().getDevices() != null)
        .flatMap(s -> s.getSpec().getDevices().stream())
        .filter(d -> d.getName().equals(name))
        .findFirst();
  }

  /** {@code GET /api/v1/gpus} of the daemon, parsed. */
  JsonNode gpus(MigdProcess.Running daemon) throws Exception {
    return JSON.readTree(get("http://127.0.0.1:" + daemon.httpPort() + "/api/v1/gpus"));
  }

  /** The slice of {@code gpu} in {@code GET /api/v1/gpus} that names claim {@code name}. */
  Optional<JsonNode> claimedSlice(MigdProcess.Running daemon, int gpu, String name)
      throws Exception {
    for (JsonNode s : gpus(daemon).get(gpu).path("slices")) {
      if (s.path("claim").path("name").asText().equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  String get(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Override
  public void close() throws IOException {
    try (var paths = Files.walk(sockets)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
