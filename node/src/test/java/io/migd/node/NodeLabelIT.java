package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.nvml.Nvml;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentService;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node label picks the layout and the Node shows the state: migd against the fabric8 mock API
 * server in CRUD mode, reconciling a simulated A100 through the real FFM NVML path.
 */
@EnableKubernetesMockClient(crud = true)
class NodeLabelIT {
  private static final String NODE = "gpu-7";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> OTHER_LABELS =
      Map.of("kubernetes.io/hostname", NODE, "nvidia.com/gpu.product", "A100-SXM4-40GB");
  private static final Map<String, String> OTHER_ANNOTATIONS =
      Map.of("node.alpha.kubernetes.io/ttl", "0", "example.com/owner", "team-ml");

  private static SimulatedNvml sim;
  private static Nvml nvml;
  private static MigConfigFile configs;

  KubernetesClient client;
  @TempDir Path stateDir;
  private NodeMigd migd;

  @BeforeAll
  static void gpus() throws Exception {
    sim = TestCluster.simulatedA100("sim-nodes");
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
  }

  @AfterEach
  void stop() {
    if (migd != null) {
      migd.close();
    }
  }

  private NodeMigd startMigd(Optional<IntentService.FileConfig> fileConfig) {
    migd = new NodeMigd(client, NODE, sim, nvml, configs, stateDir, fileConfig);
    return migd;
  }

  private void restartMigd() {
    migd.close();
    startMigd(Optional.empty());
  }

  /** As {@code kubectl label --overwrite} does it: a merge patch of the one label. */
  private void label(String value) {
    TestCluster.labelConfig(client, NODE, value);
  }

  private Node node() {
    return client.nodes().withName(NODE).get();
  }

  private String state() {
    return node().getMetadata().getLabels().get(NodeStateWriter.STATE_LABEL);
  }

  private String annotation(String key) {
    var annotations = node().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
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

  private void awaitState(String state, String generationHint) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(state())
                    .as(
                        "state; reason: %s (%s)",
                        annotation(NodeStateWriter.REASON_ANNOTATION), generationHint)
                    .isEqualTo(state));
  }

  @Test
  void theLabelPicksTheLayoutAndTheNodeShowsSuccess() {
    startMigd(Optional.empty());
    label("all-1g.5gb");

    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).hasSize(7).containsOnly("1g.5gb"));
    awaitState("success", "all-1g.5gb");
    assertThat(annotation(NodeStateWriter.REASON_ANNOTATION))
        .isEqualTo("every GPU matches the desired layout");
    assertThat(annotation(NodeStateWriter.INTENT_ANNOTATION)).isNull();
    assertThat(migd.intents.current().source()).isEqualTo(Desired.Source.LABEL);
    assertOthersUntouched();

    label("all-7g.40gb");
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("7g.40gb"));
    awaitState("success", "all-7g.40gb");
    assertOthersUntouched();
  }

  @Test
  void aLabelNamingAnUnknownConfigFailsWithAReasonNamingIt() {
    startMigd(Optional.empty());
    label("all-9g.99gb");

    awaitState("failed", "unknown config");
    assertThat(annotation(NodeStateWriter.REASON_ANNOTATION)).contains("all-9g.99gb");
    assertThat(profilesOnGpu0()).as("nothing was changed").isEmpty();
    assertOthersUntouched();
  }

  @Test
  void aLabelChangedWhileMigdWasDownWinsAtStart() {
    startMigd(Optional.empty());
    label("all-1g.5gb");
    await().atMost(WAIT).untilAsserted(() -> assertThat(profilesOnGpu0()).hasSize(7));
    awaitState("success", "all-1g.5gb");
    migd.close();

    label("all-3g.20gb");
    startMigd(Optional.empty());
    assertThat(migd.intents.current().intent())
        .as("the label read at start, before the first reconcile")
        .isEqualTo(new Desired.Intent.NamedConfig("all-3g.20gb"));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("3g.20gb", "3g.20gb"));
    awaitState("success", "all-3g.20gb");
    assertOthersUntouched();
  }

  @Test
  void anUnchangedLabelKeepsAPersistedRestIntentAcrossARestart() {
    startMigd(Optional.empty());
    label("all-1g.5gb");
    awaitState("success", "all-1g.5gb");
    Desired rest =
        migd.intents.change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-7g.40gb"));
    migd.loop.trigger();
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("7g.40gb"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(annotation(NodeStateWriter.INTENT_ANNOTATION))
                    .isEqualTo("rest, generation " + rest.generation()));

    restartMigd();
    assertThat(migd.intents.current().source()).isEqualTo(Desired.Source.REST);
    assertThat(migd.intents.current().generation()).isEqualTo(rest.generation());
    await().atMost(WAIT).until(() -> migd.loop.lastOutcome().isPresent());
    assertThat(profilesOnGpu0()).as("the REST layout stays").containsExactly("7g.40gb");
    awaitState("success", "rest");
    assertThat(annotation(NodeStateWriter.INTENT_ANNOTATION))
        .isEqualTo("rest, generation " + rest.generation());

    label("all-1g.5gb.me");
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("1g.5gb+me"));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(annotation(NodeStateWriter.INTENT_ANNOTATION)).isNull());
    awaitState("success", "label over REST");
    assertOthersUntouched();
  }

  @Test
  void removingTheLabelDropsTheIntentAndTheStateLabel() {
    startMigd(Optional.empty());
    label("all-7g.40gb");
    awaitState("success", "all-7g.40gb");

    label(null);
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              // the mock API server keeps a key a merge patch sets to null (a real one deletes it):
              // either way the label no longer has a value
              assertThat(node().getMetadata().getLabels().get(NodeStateWriter.STATE_LABEL))
                  .isNull();
              assertThat(annotation(NodeStateWriter.REASON_ANNOTATION)).isNull();
            });
    assertThat(migd.intents.current().intent()).isEqualTo(new Desired.Intent.Nothing());
    assertThat(profilesOnGpu0()).as("nothing changes without an intent").containsExactly("7g.40gb");
    assertOthersUntouched();
  }

  @Test
  void removingTheLabelBringsBackTheFileConfig() {
    startMigd(Optional.of(new IntentService.FileConfig("all-7g.40gb", "d")));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("7g.40gb"));
    label("all-3g.20gb");
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("3g.20gb", "3g.20gb"));
    awaitState("success", "label");

    label(null);
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(profilesOnGpu0()).containsExactly("7g.40gb"));
    // the state label reports on the label's config: with the label gone, it goes too
    awaitState(null, "file config again");
    assertOthersUntouched();
  }
}
