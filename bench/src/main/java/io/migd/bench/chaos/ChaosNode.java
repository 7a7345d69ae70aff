package io.migd.bench.chaos;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import io.migd.sim.Kubeconfig;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The node a chaos run drives: the simulator's state file, the API server (the fabric8 mock in CRUD
 * mode, which can answer 500 for a while) holding the Node, the test kubelet (device manager and
 * PodResources) on unix sockets, and migd.
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

  final Path work;
  final Path nvmlSim;
  final Path state;
  final Path pluginDir;
  final OutageDispatcher api = new OutageDispatcher();
  final KubernetesMockServer server;
  final KubernetesClient client;
  final FakePodResources podResources;
  final MigdDaemon migd;
  private final Path podResourcesDir;
  private FakeKubelet kubelet;

  /** The crud dispatcher, answering 500 to every request until {@link #failUntil} has passed. */
  static final class OutageDispatcher extends KubernetesCrudDispatcher {
    private volatile long failUntilNanos = System.nanoTime();
    final AtomicInteger failed = new AtomicInteger();

    void failFor(long nanos) {
      failUntilNanos = System.nanoTime() + nanos;
    }

    void end() {
      failUntilNanos = System.nanoTime();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      if (System.nanoTime() - failUntilNanos < 0) {
        failed.incrementAndGet();
        return new MockResponse()
            .setResponseCode(500)
            .setBody("{\"kind\":\"Status\",\"status\":\"Failure\",\"code\":500}");
      }
      return super.dispatch(request);
    }
  }

  ChaosNode(
      Path jar, Path work, String models, long seed, String firstConfig, ChaosSettings settings)
      throws IOException {
    this.work = work;
    this.nvmlSim = SimulatedNvml.extract(work.resolve("sim")).cliPath();
    this.state = work.resolve("state");
    NvmlView.run(nvmlSim, state, "init", "--gpus", models, "--seed", Long.toString(seed));
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init();
    client = server.createClient();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of(CONFIG_LABEL, firstConfig))
                .endMetadata()
                .build())
        .create();
    Path kubeconfig =
        Kubeconfig.write(work.resolve("kubeconfig"), client.getConfiguration().getMasterUrl());
    // unix socket paths must stay under 108 bytes
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "chaos-dp");
    podResourcesDir = Files.createTempDirectory(Path.of("/tmp"), "chaos-pr");
    kubelet = FakeKubelet.start(pluginDir);
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
    migd = new MigdDaemon(jar, work, models, env, HttpClient.newHttpClient());
  }

  FakeKubelet kubelet() {
    return kubelet;
  }

  /** The kubelet restarts: every file of its directory goes, a new {@code kubelet.sock} appears. */
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

  @Override
  public void close() throws Exception {
    migd.stop();
    podResources.close();
    kubelet.close();
    client.close();
    server.destroy();
    FakeKubelet.deleteEveryFile(pluginDir);
    Files.deleteIfExists(pluginDir);
    FakeKubelet.deleteEveryFile(podResourcesDir);
    Files.deleteIfExists(podResourcesDir);
  }
}
