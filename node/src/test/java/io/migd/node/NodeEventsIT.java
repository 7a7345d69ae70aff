package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.nvml.Nvml;
import io.migd.plan.Plan;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentService;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node Events, one per state transition: migd against the fabric8 mock API server in CRUD mode,
 * reconciling a simulated A100 through the real FFM NVML path, relabelled as an operator would.
 */
@EnableKubernetesMockClient(crud = true)
class NodeEventsIT {
  private static final String NODE = "gpu-9";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> OTHER_LABELS = Map.of("kubernetes.io/hostname", NODE);
  private static final Map<String, String> OTHER_ANNOTATIONS = Map.of("example.com/owner", "ml");

  private static SimulatedNvml sim;
  private static Nvml nvml;
  private static MigConfigFile configs;

  KubernetesClient client;
  @TempDir Path stateDir;
  private NodeMigd migd;

  @BeforeAll
  static void gpus() throws Exception {
    sim = TestCluster.simulatedA100("sim-node-events");
    nvml = TestCluster.open(sim);
    configs = TestCluster.shippedConfigs("default.yaml");
  }

  @AfterAll
  static void closeNvml() {
    nvml.close();
  }

  @BeforeEach
  void createNode() {
    sim.require("faults", "");
    sim.init("A100-SXM4-40GB");
    TestCluster.createNode(client, NODE, OTHER_LABELS, OTHER_ANNOTATIONS);
    migd = new NodeMigd(client, NODE, sim, nvml, configs, stateDir, Optional.empty());
  }

  @AfterEach
  void stop() {
    migd.close();
  }

  private void label(String value) {
    TestCluster.labelConfig(client, NODE, value);
  }

  /** The Events in the order migd sent them (their names carry a rising time stamp). */
  private List<Event> events() {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .sorted(Comparator.comparing(e -> e.getMetadata().getName()))
        .toList();
  }

  private List<String> reasons() {
    return events().stream().map(Event::getReason).toList();
  }

  private void awaitReasons(String... reasons) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(reasons()).containsExactly(reasons));
  }

  private void resyncs(int count) throws InterruptedException {
    for (int i = 0; i < count; i++) {
      migd.loop.trigger();
      assertThat(migd.loop.awaitNextOutcome(WAIT)).isPresent();
    }
  }

  private void assertOthersUntouched() {
    var node = client.nodes().withName(NODE).get();
    assertThat(node.getMetadata().getLabels()).containsAllEntriesOf(OTHER_LABELS);
    assertThat(node.getMetadata().getAnnotations()).containsAllEntriesOf(OTHER_ANNOTATIONS);
  }

  @Test
  void aReconfiguringEventNamesTheGenerationBeingAppliedNotANewerOne() {
    migd.close();
    var intents = new AtomicReference<IntentService>();
    var applied = new AtomicLong();
    // a REST change arrives while the label's plan is being made: deterministic, on the GPU's
    // thread, before migd's surfaces hear of the plan
    ProgressListener restChangeMeanwhile =
        new ProgressListener() {
          @Override
          public void planMade(GpuIndex gpu, Plan plan) {
            if (applied.get() == 0) {
              applied.set(intents.get().current().generation());
              intents
                  .get()
                  .change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-7g.40gb"));
            }
          }
        };
    migd =
        new NodeMigd(
            client, NODE, sim, nvml, configs, stateDir, Optional.empty(), restChangeMeanwhile);
    intents.set(migd.intents);
    await().atMost(WAIT).until(() -> migd.loop.lastOutcome().isPresent());

    label("all-1g.5gb");

    await().atMost(WAIT).until(() -> reasons().contains("Reconfiguring"));
    assertThat(events().getFirst().getMessage())
        .isEqualTo("applying config all-1g.5gb (from the label, generation " + applied.get() + ")");
  }

  @Test
  void aNewLayoutIsReconfiguringThenReconfiguredAndResyncsAddNothing() throws Exception {
    await().atMost(WAIT).until(() -> migd.loop.lastOutcome().isPresent());
    label("all-1g.5gb");
    awaitReasons("Reconfiguring", "Reconfigured");

    Event reconfiguring = events().getFirst();
    assertThat(reconfiguring.getType()).isEqualTo("Normal");
    assertThat(reconfiguring.getMessage()).startsWith("applying config all-1g.5gb (from the label");
    assertThat(reconfiguring.getInvolvedObject().getKind()).isEqualTo("Node");
    assertThat(reconfiguring.getInvolvedObject().getName()).isEqualTo(NODE);
    assertThat(reconfiguring.getInvolvedObject().getUid())
        .isNotBlank()
        .isEqualTo(client.nodes().withName(NODE).get().getMetadata().getUid());
    assertThat(reconfiguring.getSource().getComponent()).isEqualTo("migd");
    Event reconfigured = events().get(1);
    assertThat(reconfigured.getType()).isEqualTo("Normal");
    assertThat(reconfigured.getMessage()).isEqualTo("every GPU matches the desired layout");

    resyncs(3);
    // a transition after the resyncs: Events are sent in order, so any a resync brought would
    // show before it
    label("all-9g.99gb");
    awaitReasons("Reconfiguring", "Reconfigured", "ReconfigureFailed");
    Event failed = events().getLast();
    assertThat(failed.getType()).isEqualTo("Warning");
    assertThat(failed.getMessage()).contains("all-9g.99gb");
    assertThat(
            client
                .nodes()
                .withName(NODE)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(NodeStateWriter.REASON_ANNOTATION))
        .as("the Event says what the reason annotation says")
        .isEqualTo(failed.getMessage());
    assertOthersUntouched();
  }

  @Test
  void anUnknownConfigIsOneFailureHoweverOftenItIsRetried() throws Exception {
    label("all-9g.99gb");
    awaitReasons("ReconfigureFailed");
    resyncs(3);

    label("all-7g.40gb");
    awaitReasons("ReconfigureFailed", "Reconfiguring", "Reconfigured");
    assertThat(events().getLast().getType()).isEqualTo("Normal");
    assertOthersUntouched();
  }

  @Test
  void aBusySliceBlocksOnceAndTheChangeGoesOnWhenItIsFree() throws Exception {
    label("all-1g.5gb");
    awaitReasons("Reconfiguring", "Reconfigured");
    LiveGpuInstance slice =
        new NodeObserver(nvml, NodeMigd.CATALOG)
            .observe()
            .gpus()
            .getFirst()
            .gpuInstances()
            .getFirst();
    sim.require(
        "attach",
        "--gpu",
        "0",
        "--gi",
        Integer.toString(slice.id()),
        "--pid",
        "4242",
        "--mem",
        "256",
        "--name",
        "trainer");

    label("all-3g.20gb");
    awaitReasons("Reconfiguring", "Reconfigured", "ReconfigureBlocked");
    Event blocked = events().getLast();
    assertThat(blocked.getType()).isEqualTo("Warning");
    assertThat(blocked.getMessage()).contains("4242");
    // blocked is retried with backoff: each retry ends blocked again and sends nothing
    resyncs(3);

    sim.require("detach", "--pid", "4242");
    awaitReasons(
        "Reconfiguring", "Reconfigured", "ReconfigureBlocked", "Reconfiguring", "Reconfigured");
    assertOthersUntouched();
  }
}
