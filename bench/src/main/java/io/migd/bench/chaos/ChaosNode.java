package io.migd.bench.chaos;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.migd.dra.FakeDraKubelet;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import io.migd.profiles.DeviceSelection;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigItem;
import io.migd.profiles.MigConfigWriter;
import io.migd.sim.Kubeconfig;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The node a chaos run drives: the simulator's state file, the API server (the fabric8 mock in CRUD
 * mode, which can answer 500 for a while) holding the Node, the test kubelet (device manager and
 * PodResources) on unix sockets, and migd. In DRA mode the API server answers as Kubernetes 1.36
 * and also holds the ResourceSlices and ResourceClaims, the node has a proc tree (capability nodes,
 * boot id) and a CDI directory, and the kubelet is the DRA one ({@link FakeDraKubelet}), registered
 * again whenever migd's registration socket comes back.
 */
final class ChaosNode implements AutoCloseable {
  static final String NODE = "chaos-node";
  static final String CONFIG_LABEL = "nvidia.com/mig.config";
  static final String STATE_LABEL = "nvidia.com/mig.config.state";

  /**
   * migd's {@code migd.kubelet.allocation-grace}: a device {@code Allocate} handed out counts as in
   * use this long, also after its pod ended.
   */
  static final Duration ALLOCATION_GRACE = Duration.ofSeconds(10);

  /** migd's DRA driver name (its default, NVIDIA's). */
  static final String DRIVER = "gpu.nvidia.com";

  /** The Kubernetes and kubelet version of a node whose GPUs publish shares (their gates). */
  private static final String SHARES_VERSION = "v1.36.2";

  /** How long a DRA operation waits for migd's registration socket after a restart. */
  private static final Duration REGISTRATION_PATIENCE = Duration.ofSeconds(2);

  final Path work;
  final Path nvmlSim;
  private final SimulatedNvml sim;
  final Path state;
  final Path pluginDir;
  final OutageDispatcher api = new OutageDispatcher();
  final KubernetesMockServer server;
  final KubernetesClient client;
  final FakePodResources podResources;
  final MigdDaemon migd;
  final boolean dra;

  /** (DRA) Whether the dynamic GPUs and the GPU without MIG publish shareable twins. */
  final boolean shares;

  private final Path podResourcesDir;
  private final Path registrySocket;
  private FakeKubelet kubelet;
  private FakeDraKubelet.Plugin draPlugin;
  private int draPluginLife;

  /** (DRA, where the supervisor can run: root and unshare) The MPS root and its supervisor. */
  private Path mpsRoot;

  private MpsSupervisor supervisor;

  /**
   * The crud dispatcher, answering 500 to every request until {@link #failFor}'s time has passed;
   * {@code /version} answers as Kubernetes 1.36 once {@link #kubernetes136} was called (the mock
   * server's own version answer does not reach a dispatcher of one's own).
   */
  static final class OutageDispatcher extends KubernetesCrudDispatcher {
    private volatile long failUntilNanos = System.nanoTime();
    private volatile boolean kubernetes136;
    private volatile String gitVersion = "v1.36.0";
    final AtomicInteger failed = new AtomicInteger();

    void failFor(long nanos) {
      failUntilNanos = System.nanoTime() + nanos;
    }

    void end() {
      failUntilNanos = System.nanoTime();
    }

    void kubernetes136(String gitVersion) {
      this.gitVersion = gitVersion;
      kubernetes136 = true;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      if (System.nanoTime() - failUntilNanos < 0) {
        failed.incrementAndGet();
        return new MockResponse()
            .setResponseCode(500)
            .setBody("{\"kind\":\"Status\",\"status\":\"Failure\",\"code\":500}");
      }
      if (kubernetes136 && request.getPath().equals("/version")) {
        return new MockResponse()
            .setResponseCode(200)
            .setBody(
                "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\""
                    + gitVersion
                    + "\","
                    + "\"platform\":\"linux/amd64\"}");
      }
      return super.dispatch(request);
    }
  }

  ChaosNode(
      Path jar, Path work, String models, long seed, String firstConfig, ChaosSettings settings)
      throws IOException {
    this.work = work;
    this.sim = SimulatedNvml.extract(work.resolve("sim"));
    this.nvmlSim = sim.cliPath();
    this.state = work.resolve("state");
    NvmlView.run(nvmlSim, state, "init", "--gpus", models, "--seed", Long.toString(seed));
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init();
    this.dra = settings.dra();
    // shares need the MPS supervisor, Kubernetes 1.36.2 and a 1.36 kubelet (their gates)
    this.shares = dra && settings.shares() && MpsSupervisor.unavailable().isEmpty();
    if (dra) {
      api.kubernetes136(shares ? SHARES_VERSION : "v1.36.0");
    }
    client = server.createClient();
    var nodeObject =
        new NodeBuilder()
            .withNewMetadata()
            .withName(NODE)
            .withLabels(Map.of(CONFIG_LABEL, firstConfig))
            .endMetadata();
    if (shares) {
      // a 1.36 kubelet: a gate of shares (no kubelet writes the Node's status here)
      nodeObject
          .withNewStatus()
          .withNewNodeInfo()
          .withKubeletVersion(SHARES_VERSION)
          .endNodeInfo()
          .endStatus();
    }
    client.nodes().resource(nodeObject.build()).create();
    Path kubeconfig =
        Kubeconfig.write(work.resolve("kubeconfig"), client.getConfiguration().getMasterUrl());
    // unix socket paths must stay under 108 bytes
    pluginDir = Files.createTempDirectory(settings.work(), "chaos-dp");
    podResourcesDir = Files.createTempDirectory(settings.work(), "chaos-pr");
    registrySocket = pluginDir.resolve("registry").resolve(DRIVER + "-reg.sock");
    if (!dra) {
      kubelet = FakeKubelet.start(pluginDir);
    }
    podResources = FakePodResources.start(podResourcesDir.resolve("kubelet.sock"));
    var env = new HashMap<String, String>();
    env.put("NVML_SIM_STATE", state.toString());
    env.put("MIGD_STATEDIR", work.resolve("statedir").toString());
    env.put("MIGD_NVML_EXTRACTDIR", work.resolve("nvml").toString());
    env.put("SERVER_PORT", "0");
    env.put("NODE_NAME", NODE);
    env.put("KUBECONFIG", kubeconfig.toString());
    env.put("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString());
    env.put("MIGD_KUBELET_PODRESOURCESSOCKET", podResourcesDir.resolve("kubelet.sock").toString());
    env.put("MIGD_RECONCILE_RESYNC", settings.resync().toSeconds() + "s");
    env.put("MIGD_RECONCILE_MAXBACKOFF", settings.resync().toSeconds() + "s");
    env.put("MIGD_KUBELET_ALLOCATIONGRACE", ALLOCATION_GRACE.toSeconds() + "s");
    env.put("MIGD_HEALTH_RECOVERYPERIOD", "20s");
    if (dra) {
      draEnvironment(env);
    }
    migd = new MigdDaemon(jar, work, models, env, HttpClient.newHttpClient());
  }

  /**
   * migd as the node's DRA driver, as the DRA end-to-end tests start it: CDI on (the {@code
   * nvidia-ctk} stand-in generating the GPU spec), the registration and plugin sockets in the
   * runner's socket directory, the proc tree of this node's GPUs (GPU minor = index, as the
   * simulator numbers them).
   */
  private void draEnvironment(Map<String, String> env) throws IOException {
    var gpus =
        nvml().gpus().stream()
            .map(
                g ->
                    !g.migCapable()
                        ? new SimulatedProc.Gpu(g.index(), 0, 0)
                        : g.model().startsWith("A30")
                            ? new SimulatedProc.Gpu(g.index(), 4, 4)
                            : new SimulatedProc.Gpu(g.index(), 8, 7))
            .toList();
    Path proc = work.resolve("proc");
    SimulatedProc.write(proc, gpus);
    Files.createDirectories(registrySocket.getParent());
    env.put("MIGD_KUBELET_MODE", "dra");
    env.putAll(
        NvidiaCtkStandIn.cdiEnvironment(
            nvmlSim, work, Files.createDirectories(work.resolve("cdi"))));
    env.put("MIGD_DRA_REGISTRYDIR", registrySocket.getParent().toString());
    env.put("MIGD_DRA_PLUGINDIR", pluginDir.resolve("plugin").toString());
    env.put("MIGD_DRA_PROCROOT", proc.toString());
    env.put("MIGD_SYSFSROOT", Files.createDirectories(work.resolve("sys")).toString());
    // claims' sharing (ChaosSharing): the time slice through the simulated nvidia-smi, MPS daemons
    // through the chart's supervisor where it can run
    env.put(
        "MIGD_DRA_TIMESLICECOMMAND",
        nvmlSim.resolveSibling("nvidia-smi")
            + ",compute-policy,-i,{uuid},--set-timeslice,{interval}");
    if (MpsSupervisor.unavailable().isEmpty()) {
      // the control pipe's socket path must stay under 108 bytes
      mpsRoot = Files.createTempDirectory(Path.of("/tmp"), "chaos-mps");
      env.put("MIGD_MPS_ROOT", mpsRoot.toString());
      env.put("MIGD_MPS_CONTROLCOMMAND", sim.mpsControlPath().toString());
      env.put("MIGD_MPS_STARTTIMEOUT", "10s");
      supervisor = MpsSupervisor.start(mpsRoot, sim, state, work.resolve("mps-supervisor.log"));
    }
    if (shares) {
      env.put("MIGD_DRA_SHARES", "true");
      env.put("MIGD_CONFIGFILE", sharesConfigFile().toString());
    }
  }

  /**
   * The configs migd generates from its catalogue, {@code all-dynamic} with {@code shares: true}:
   * every MIG-capable GPU dynamic with a twin per device, the GPU without MIG whole and shared.
   */
  private Path sharesConfigFile() throws IOException {
    var generated = GeneratedConfigs.forModels(GpuModelCatalog.builtIn().models());
    var configs =
        generated.configs().stream()
            .map(
                c ->
                    c.name().equals(GeneratedConfigs.ALL_DYNAMIC)
                        ? new MigConfig(
                            c.name(),
                            List.of(
                                MigConfigItem.dynamic(new DeviceSelection.All(), List.of(), true)))
                        : c)
            .toList();
    return Files.writeString(
        work.resolve("configs.yaml"), MigConfigWriter.write(MigConfigFile.of(configs)));
  }

  /** (DRA) The MPS root migd and the supervisor share; empty where the supervisor cannot run. */
  Optional<Path> mpsRoot() {
    return Optional.ofNullable(mpsRoot);
  }

  /** migd's state directory (its DRA checkpoint). */
  Path stateDir() {
    return work.resolve("statedir");
  }

  /**
   * (DRA) The kubelet's registration with migd's current life: registers again after a restart or a
   * removed registration socket, waiting a little for the socket; empty when migd does not register
   * (down, or still starting).
   */
  Optional<FakeDraKubelet.Plugin> draPlugin() throws InterruptedException {
    return draPlugin(REGISTRATION_PATIENCE);
  }

  /** {@link #draPlugin()}, waiting up to {@code patience} for the registration socket. */
  Optional<FakeDraKubelet.Plugin> draPlugin(Duration patience) throws InterruptedException {
    MigdDaemon.Life life = migd.life();
    if (draPlugin != null && draPluginLife == life.number && Files.exists(registrySocket)) {
      return Optional.of(draPlugin);
    }
    closeDraPlugin();
    long deadline = System.nanoTime() + patience.toNanos();
    while (life.process.isAlive() && System.nanoTime() < deadline) {
      if (Files.exists(registrySocket)) {
        try {
          draPlugin = FakeDraKubelet.register(registrySocket);
          draPluginLife = life.number;
          return Optional.of(draPlugin);
        } catch (RuntimeException e) {
          // a socket the killed life left behind, or the new one not answering yet
        }
      }
      Thread.sleep(200);
    }
    return Optional.empty();
  }

  /** (DRA) The kubelet's plugin watcher loses migd: the registration socket is removed. */
  void removeRegistration() throws IOException, InterruptedException {
    closeDraPlugin();
    Files.deleteIfExists(registrySocket);
  }

  private void closeDraPlugin() throws InterruptedException {
    if (draPlugin != null) {
      draPlugin.close();
      draPlugin = null;
    }
  }

  FakeKubelet kubelet() {
    return kubelet;
  }

  /**
   * The kubelet restarts: every file of its directory goes, a new {@code kubelet.sock} appears
   * (device plugin only).
   */
  void restartKubelet() throws InterruptedException {
    kubelet = FakeKubelet.restart(kubelet);
  }

  NvmlView nvml() {
    return NvmlView.read(nvmlSim, state);
  }

  /** The Node's labels, or empty when the API server does not answer. */
  Map<String, String> labels() {
    var node = client.nodes().withName(NODE).get();
    return node == null || node.getMetadata().getLabels() == null
        ? Map.of()
        : node.getMetadata().getLabels();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Override
  public void close() throws Exception {
    migd.stop();
    podResources.close();
    if (kubelet != null) {
      kubelet.close();
    }
    closeDraPlugin();
    if (supervisor != null) {
      supervisor.close();
      deleteTree(mpsRoot);
    }
    client.close();
    server.destroy();
    deleteTree(pluginDir);
    FakeKubelet.deleteEveryFile(podResourcesDir);
    Files.deleteIfExists(podResourcesDir);
  }
}
