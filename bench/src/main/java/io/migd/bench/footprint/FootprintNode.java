package io.migd.bench.footprint;

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
import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The node one footprint run of migd sees, by kubelet mode: nothing ({@link Mode#OFF}: no kubelet,
 * no {@code NODE_NAME}, as the image's training run before per-mode caches); the test kubelet's
 * device manager and PodResources on unix sockets plus the Node in the fabric8 mock API server
 * ({@link Mode#DEVICE_PLUGIN}: label watch, state writer, Events); or the test DRA kubelet, which
 * registers migd once its registration socket appears and opens the health stream, plus the API
 * server answering as Kubernetes 1.36 with {@code resource.k8s.io/v1} ({@link Mode#DRA}:
 * ResourceSlices, claims). One node per migd process: a training run and each measured run get a
 * fresh one.
 */
public final class FootprintNode implements AutoCloseable {
  /** The Node's name ({@code NODE_NAME}) and the DRA pool's. */
  public static final String NODE = "footprint-node";

  /** migd's DRA driver name (its default, NVIDIA's). */
  public static final String DRIVER = "gpu.nvidia.com";

  /** The config label migd follows once {@code NODE_NAME} is set. */
  static final String CONFIG_LABEL = "nvidia.com/mig.config";

  /** Which of migd's surfaces run. */
  public enum Mode {
    OFF("off", "all-balanced"),
    DEVICE_PLUGIN("device-plugin", "all-balanced"),
    DRA("dra", "all-dynamic");

    /** The name on the command line and in the results. */
    public final String label;

    /**
     * The config the node is labelled with: what a node of this mode runs (the chart's example of a
     * dra group: all-dynamic, so claims make their own GPU instances).
     */
    public final String config;

    Mode(String label, String config) {
      this.label = label;
      this.config = config;
    }

    /** The mode named {@code label}. */
    public static Mode of(String label) {
      for (Mode mode : values()) {
        if (mode.label.equals(label)) {
          return mode;
        }
      }
      throw new IllegalArgumentException("no mode " + label + " (off, device-plugin, dra)");
    }
  }

  /**
   * The CRUD dispatcher, answering {@code /version} as Kubernetes 1.36 (the mock server's own
   * version answer does not reach a dispatcher of one's own), where DRA's {@code v1} is served.
   */
  private static final class Kubernetes136 extends KubernetesCrudDispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest request) {
      if (request.getPath().equals("/version")) {
        return new MockResponse()
            .setResponseCode(200)
            .setBody(
                "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\"v1.36.0\","
                    + "\"platform\":\"linux/amd64\"}");
      }
      return super.dispatch(request);
    }
  }

  /** The mock API server logs every request at INFO: a strong reference keeps it quieter. */
  private static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private final Mode mode;
  private final Path sockets;
  private final Map<String, String> environment = new HashMap<>();
  private KubernetesMockServer server;
  private KubernetesClient client;
  private FakeKubelet kubelet;
  private FakePodResources podResources;
  private Thread registrar;
  private volatile FakeDraKubelet.Plugin plugin;

  private FootprintNode(Mode mode, Path work) throws IOException {
    this.mode = mode;
    // unix socket paths must stay under 108 bytes: the temporary directory, not the work one
    this.sockets = Files.createTempDirectory("fp-");
    environment.put("MIGD_STATEDIR", Files.createDirectories(work.resolve("state")).toString());
    environment.put("MIGD_CONFIG", mode.config);
    if (mode == Mode.OFF) {
      environment.put("MIGD_KUBELET_ENABLED", "false");
      return;
    }
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), new Kubernetes136(), false);
    server.init();
    client = server.createClient();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of(CONFIG_LABEL, mode.config))
                .endMetadata()
                .build())
        .create();
    // the API server as a pod finds it (no kubeconfig, so no YAML parser), without the service
    // account's token and certificate the mock server does not check
    environment.put("NODE_NAME", NODE);
    environment.put("KUBERNETES_MASTER", client.getConfiguration().getMasterUrl());
    environment.put("KUBERNETES_AUTH_TRYKUBECONFIG", "false");
    environment.put("KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false");
    Path podResourcesSocket = sockets.resolve("pod-resources.sock");
    podResources = FakePodResources.start(podResourcesSocket);
    environment.put("MIGD_KUBELET_PODRESOURCESSOCKET", podResourcesSocket.toString());
    if (mode == Mode.DEVICE_PLUGIN) {
      Path pluginDir = Files.createDirectories(sockets.resolve("dp"));
      kubelet = FakeKubelet.start(pluginDir);
      environment.put("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString());
    } else {
      draEnvironment(work);
    }
  }

  /** A node of {@code mode} for one migd process; {@code work} holds its files. */
  public static FootprintNode start(Mode mode, Path work) throws IOException {
    return new FootprintNode(mode, work);
  }

  /**
   * migd as the node's DRA driver, as the chaos runner starts it: CDI on (the {@code nvidia-ctk}
   * stand-in), the registration and plugin sockets here, the proc tree of 8 H100s (GPU minor =
   * index).
   */
  private void draEnvironment(Path work) throws IOException {
    Path proc = work.resolve("proc");
    SimulatedProc.write(
        proc, IntStream.range(0, 8).mapToObj(i -> new SimulatedProc.Gpu(i, 8, 7)).toList());
    environment.put("MIGD_KUBELET_MODE", "dra");
    Path nvmlSim = SimulatedNvml.extract(work.resolve("sim")).cliPath();
    environment.putAll(
        NvidiaCtkStandIn.cdiEnvironment(
            nvmlSim, work, Files.createDirectories(work.resolve("cdi"))));
    environment.put(
        "MIGD_DRA_REGISTRYDIR", Files.createDirectories(sockets.resolve("reg")).toString());
    environment.put("MIGD_DRA_PLUGINDIR", sockets.resolve("plugin").toString());
    environment.put("MIGD_DRA_PROCROOT", proc.toString());
    environment.put("MIGD_SYSFSROOT", Files.createDirectories(work.resolve("sys")).toString());
  }

  /** What migd's environment gets for this node. */
  public Map<String, String> environment() {
    return Map.copyOf(environment);
  }

  /** The API server's client (empty with the surfaces off). */
  public Optional<KubernetesClient> client() {
    return Optional.ofNullable(client);
  }

  public Mode mode() {
    return mode;
  }

  /**
   * (DRA) Starts the kubelet's plugin watcher: once migd's registration socket appears, registers
   * it and opens the health stream, as the kubelet does.
   */
  public void watchRegistration(Process migd) {
    if (mode != Mode.DRA) {
      return;
    }
    Path socket = sockets.resolve("reg").resolve(DRIVER + "-reg.sock");
    registrar =
        Thread.ofPlatform()
            .daemon()
            .name("footprint-plugin-watcher")
            .start(
                () -> {
                  while (plugin == null && migd.isAlive()) {
                    try {
                      if (Files.exists(socket)) {
                        FakeDraKubelet.Plugin registered = FakeDraKubelet.register(socket);
                        registered.watchHealth();
                        plugin = registered;
                        return;
                      }
                      Thread.sleep(20);
                    } catch (InterruptedException e) {
                      return;
                    } catch (RuntimeException notYet) {
                      // the socket exists before migd serves on it; the loop tries again
                    }
                  }
                });
  }

  /** (DRA) The registered plugin, once the watcher registered it. */
  public Optional<FakeDraKubelet.Plugin> plugin() {
    return Optional.ofNullable(plugin);
  }

  @Override
  public void close() throws Exception {
    if (registrar != null) {
      registrar.interrupt();
    }
    if (plugin != null) {
      plugin.close();
    }
    if (kubelet != null) {
      kubelet.close();
    }
    if (podResources != null) {
      podResources.close();
    }
    if (client != null) {
      client.close();
      server.destroy();
    }
    MigdProcess.deleteTree(sockets);
  }
}
