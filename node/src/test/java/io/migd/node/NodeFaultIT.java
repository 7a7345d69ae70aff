package io.migd.node;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.nvml.Nvml;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.ReconcileSettings;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The API server misbehaving never stops the GPU side, and the Node's labels catch up when it
 * answers again. migd's client reaches the fabric8 mock API server (CRUD mode) through WireMock,
 * which proxies every request and answers with a fault while a test says so. The watch is a
 * WebSocket, which WireMock cannot proxy: it goes through a plain TCP relay of this test instead,
 * which drops it on demand.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class NodeFaultIT {
  private static final String NODE = "gpu-3";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NODE_PATH = "/api/v1/nodes.*";
  private static final Map<String, String> OTHER_LABELS =
      Map.of("kubernetes.io/hostname", NODE, "nvidia.com/gpu.product", "A100-SXM4-40GB");
  private static final Map<String, String> OTHER_ANNOTATIONS = Map.of("example.com/owner", "ml");

  private static SimulatedNvml sim;
  private static Nvml nvml;
  private static MigConfigFile configs;

  /** The test's own client, straight to the mock API server: the operator and the assertions. */
  KubernetesClient client;

  KubernetesMockServer server;
  @TempDir Path stateDir;
  private WireMockServer wireMock;
  private WatchRelay relay;
  private KubernetesClient migdClient;
  private NodeMigd migd;

  @BeforeAll
  static void gpus() throws Exception {
    sim = TestCluster.simulatedA100("sim-faults");
    nvml = TestCluster.open(sim);
    configs = TestCluster.shippedConfigs("default.yaml");
  }

  @AfterAll
  static void closeNvml() {
    nvml.close();
  }

  @BeforeEach
  void start() throws IOException {
    sim.init("A100-SXM4-40GB");
    TestCluster.createNode(client, NODE, OTHER_LABELS, OTHER_ANNOTATIONS);
    wireMock = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    wireMock.start();
    wireMock.stubFor(
        any(anyUrl())
            .atPriority(10)
            .willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + server.getPort())));
    relay = new WatchRelay(server.getPort());
    migdClient = faultyClient(wireMock.port(), relay.port());
    migd =
        new NodeMigd(
            migdClient,
            NODE,
            sim,
            nvml,
            configs,
            stateDir,
            Optional.empty(),
            new ReconcileSettings(
                Duration.ofSeconds(1), Duration.ofMillis(50), Duration.ofMillis(500)));
  }

  @AfterEach
  void stop() {
    migd.close();
    migdClient.close();
    relay.close();
    wireMock.stop();
  }

  /**
   * migd's client: to WireMock, the watch to the relay; short timeouts and one retry, so that a
   * fault shows within a second rather than after fabric8's default ten retries.
   */
  private static KubernetesClient faultyClient(int apiPort, int watchPort) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("http://127.0.0.1:" + apiPort)
            .withHttp2Disable(true)
            .withConnectionTimeout(1_000)
            .withRequestTimeout(1_000)
            .withRequestRetryBackoffLimit(1)
            .withRequestRetryBackoffInterval(50)
            .withWatchReconnectInterval(200)
            .withWatchReconnectLimit(-1)
            .build();
    Interceptor watchToRelay =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            URI uri = request.uri();
            if (uri.getRawQuery() != null && uri.getRawQuery().contains("watch=true")) {
              builder.uri(
                  URI.create(uri.toString().replaceFirst("//[^/]+", "//127.0.0.1:" + watchPort)));
            }
          }
        };
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("watch-relay", watchToRelay))
        .build();
  }

  /** The faults WireMock answers every Node request with, in place of the API server's answer. */
  enum HttpFault {
    SERVER_ERROR(() -> aResponse().withStatus(500).withBody("etcdserver: request timed out")),
    SLOW_ANSWER(() -> aResponse().withStatus(200).withFixedDelay(3_000)),
    CONNECTION_RESET(() -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)),
    EMPTY_RESPONSE(() -> aResponse().withFault(Fault.EMPTY_RESPONSE));

    final Supplier<ResponseDefinitionBuilder> answer;

    HttpFault(Supplier<ResponseDefinitionBuilder> answer) {
      this.answer = answer;
    }
  }

  private StubMapping inject(ResponseDefinitionBuilder answer) {
    return wireMock.stubFor(any(urlPathMatching(NODE_PATH)).atPriority(1).willReturn(answer));
  }

  /**
   * Requests to the one Node, which after the start only the state writer sends: fabric8's patch
   * reads the Node (GET) before it sends the PATCH, so a fault stops a write at its GET.
   */
  private int writesTried() {
    return wireMock
        .countRequestsMatching(anyRequestedFor(urlPathEqualTo("/api/v1/nodes/" + NODE)).build())
        .getCount();
  }

  /** As {@code kubectl label --overwrite} does it, straight to the API server. */
  private void label(String value) {
    TestCluster.labelConfig(client, NODE, value);
  }

  private Node node() {
    return client.nodes().withName(NODE).get();
  }

  private String state() {
    return node().getMetadata().getLabels().get(NodeStateWriter.STATE_LABEL);
  }

  private String reason() {
    return node().getMetadata().getAnnotations().get(NodeStateWriter.REASON_ANNOTATION);
  }

  private void awaitState(String state) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(state()).as("state; reason: %s", reason()).isEqualTo(state));
  }

  private static void awaitProfiles(String... profiles) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(profilesOnGpu0()).containsOnly(profiles));
  }

  /** The GPU instance profiles on GPU 0, read through NVML. */
  private static List<String> profilesOnGpu0() {
    return new NodeObserver(nvml, NodeMigd.CATALOG)
        .observe().gpus().getFirst().gpuInstances().stream()
            .map(LiveGpuInstance::profile)
            .map(Object::toString)
            .toList();
  }

  private void assertOthersUntouched() {
    Node node = node();
    assertThat(node.getMetadata().getLabels()).containsAllEntriesOf(OTHER_LABELS);
    assertThat(node.getMetadata().getAnnotations()).containsAllEntriesOf(OTHER_ANNOTATIONS);
  }

  @ParameterizedTest
  @EnumSource(HttpFault.class)
  void theGpusGoOnWhileTheApiServerFailsAndTheStateCatchesUp(HttpFault fault) {
    label("all-9g.99gb");
    awaitState("failed");

    StubMapping failing = inject(fault.answer.get());
    int triedBefore = writesTried();
    label("all-1g.5gb");

    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).hasSize(7).containsOnly("1g.5gb"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(writesTried()).as("migd tried to write").isGreaterThan(triedBefore));
    assertThat(state()).as("no write got through the fault").isEqualTo("failed");

    wireMock.removeStub(failing);
    awaitState("success");
    assertThat(reason()).isEqualTo("every GPU matches the desired layout");
    assertOthersUntouched();
  }

  @Test
  void aDroppedWatchResumesAndTheLabelChangedMeanwhileApplies() {
    label("all-1g.5gb");
    awaitProfiles("1g.5gb");
    awaitState("success");
    int watchesBefore = relay.connections();

    // the whole API server away: the watch dropped and refused, every request answered 503
    relay.drop();
    StubMapping away = inject(aResponse().withStatus(503));
    label("all-7g.40gb");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(relay.refused()).as("the watch tried to reconnect").isPositive());

    relay.resume();
    wireMock.removeStub(away);
    awaitProfiles("7g.40gb");
    awaitState("success");
    assertThat(relay.connections()).as("a new watch").isGreaterThan(watchesBefore);
    assertOthersUntouched();
  }

  /**
   * A watch that stays open but delivers nothing (a proxy that stopped forwarding, or fabric8's
   * informer between reconnects long after an outage): the label is read again every resync, so the
   * change applies anyway. Without the re-read the watch never tells it.
   */
  @Test
  void aLabelChangedWhileTheWatchHangsOpenAppliesAtTheNextResync() {
    label("all-1g.5gb");
    awaitProfiles("1g.5gb");
    awaitState("success");
    int watchesBefore = relay.connections();

    relay.silence();
    label("all-7g.40gb");
    awaitProfiles("7g.40gb");
    awaitState("success");
    assertThat(relay.connections()).as("the same, silent watch").isEqualTo(watchesBefore);
    assertOthersUntouched();
  }

  @Test
  void aFailedWriteIsMadeAgainWithoutAnyNewLabel() {
    label("all-3g.20gb");
    awaitProfiles("3g.20gb");
    awaitState("success");

    // one state change while every Node request gets 503 (fabric8 tries twice), then none: the
    // failed write is made again at the next reconcile (the 1 s resync), with no label change
    StubMapping failing =
        wireMock.stubFor(
            any(urlPathMatching(NODE_PATH)).atPriority(1).willReturn(aResponse().withStatus(503)));
    int triedBefore = writesTried();
    label("all-9g.99gb");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(migd.loop.lastOutcome())
                    .hasValueSatisfying(
                        o -> {
                          assertThat(o.reason()).contains("all-9g.99gb");
                        }));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(writesTried()).as("migd tried to write").isGreaterThan(triedBefore));
    assertThat(state()).as("the write failed").isEqualTo("success");
    wireMock.removeStub(failing);

    awaitState("failed");
    assertThat(reason()).contains("all-9g.99gb");
    assertThat(profilesOnGpu0()).as("the GPUs keep their layout").containsOnly("3g.20gb");
  }

  /**
   * A TCP relay to the mock API server for the watch's WebSocket; {@link #drop} closes every
   * connection and refuses new ones until {@link #resume}; {@link #silence} keeps the connections
   * open but passes nothing on from then.
   */
  static final class WatchRelay implements AutoCloseable {
    private final int target;
    private final ServerSocket listening;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean dropping;
    private volatile boolean silent;

    WatchRelay(int target) throws IOException {
      this.target = target;
      listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread.ofVirtual().name("watch-relay").start(this::accept);
    }

    int port() {
      return listening.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    int refused() {
      return refused.get();
    }

    void drop() {
      dropping = true;
      open.forEach(NodeFaultIT::closeQuietly);
      open.clear();
    }

    void resume() {
      dropping = false;
    }

    void silence() {
      silent = true;
    }

    private void accept() {
      while (!listening.isClosed()) {
        try {
          Socket in = listening.accept();
          if (dropping) {
            refused.incrementAndGet();
            closeQuietly(in);
            continue;
          }
          Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
          connections.incrementAndGet();
          open.add(in);
          open.add(out);
          Thread.ofVirtual().start(() -> pipe(in, out));
          Thread.ofVirtual().start(() -> pipe(out, in));
        } catch (IOException e) {
          // closed, or the mock API server went: the client sees a failed watch and retries
        }
      }
    }

    private void pipe(Socket from, Socket to) {
      try (InputStream in = from.getInputStream();
          OutputStream out = to.getOutputStream()) {
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          if (!silent) {
            out.write(buffer, 0, n);
            out.flush();
          }
        }
      } catch (IOException e) {
        // one side closed: close both below
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }

    @Override
    public void close() {
      closeQuietly(listening);
      drop();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
