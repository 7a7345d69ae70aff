package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.devices.MigStrategy;
import io.migd.execute.ProgressListener;
import io.migd.nvml.Nvml;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capacity labels in NVIDIA's style on the Node: migd against the fabric8 mock API server in
 * CRUD mode, reconciling a simulated A100 and T4 through the real FFM NVML path, wired as the
 * daemon wires it ({@code migd.node.capacity-labels} on or off).
 */
@EnableKubernetesMockClient(crud = true)
class CapacityLabelsIT {
  private static final String NODE = "gpu-11";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Map<String, String> OTHER_LABELS =
      Map.of("kubernetes.io/hostname", NODE, "nvidia.com/gpu.product", "A100-SXM4-40GB");
  private static final Map<String, String> OTHER_ANNOTATIONS =
      Map.of("example.com/owner", "team-ml");

  private static SimulatedNvml sim;
  private static Nvml nvml;
  private static MigConfigFile defaults;
  private static MigConfigFile examples;

  KubernetesClient client;
  @TempDir Path stateDir;
  private ReconcileLoop loop;
  private NodeLabelWatch watch;
  private ExecutorService writes;

  @BeforeAll
  static void gpus() throws Exception {
    sim = SimulatedNvml.extract(Path.of("target", "sim-capacity-labels").toAbsolutePath());
    sim.init("A100-SXM4-40GB,T4");
    nvml = TestCluster.open(sim);
    defaults = TestCluster.shippedConfigs("default.yaml");
    examples = TestCluster.shippedConfigs("examples.yaml");
  }

  @AfterAll
  static void closeNvml() {
    nvml.close();
  }

  @BeforeEach
  void resetGpus() {
    sim.require("faults", "");
    sim.init("A100-SXM4-40GB,T4");
  }

  @AfterEach
  void stop() {
    if (watch != null) {
      watch.close();
      loop.close();
      writes.close();
    }
  }

  private void createNode(Map<String, String> moreLabels) {
    var labels = new HashMap<>(OTHER_LABELS);
    labels.putAll(moreLabels);
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(labels)
                .withAnnotations(OTHER_ANNOTATIONS)
                .endMetadata()
                .build())
        .create();
  }

  private static Optional<MigConfig> config(String name) {
    return defaults.config(name).or(() -> examples.config(name));
  }

  /** migd on the node, as NodeConfiguration wires it, capacity labels on or off. */
  private void startMigd(boolean capacityLabels) {
    var intents = new IntentService(new IntentStore(stateDir), Optional.empty());
    watch = new NodeLabelWatch(client, NODE, Duration.ofHours(1));
    intents.labelSeen(watch.readLabel());
    writes = Executors.newSingleThreadExecutor();
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    Reconciler reconciler =
        Reconciler.over(
            nvml,
            NodeMigd.CATALOG,
            CapacityLabelsIT::config,
            ProgressListener.NONE,
            reset,
            RebootPolicy.DISABLED);
    var writer =
        new NodeStateWriter(
            client,
            NODE,
            writes,
            capacityLabels
                ? CapacityLabels.Source.inventory(MigStrategy.MIXED)
                : CapacityLabels.Source.OFF);
    loop =
        new ReconcileLoop(
            reconciler,
            intents::current,
            new ReconcileSettings(
                Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(500)),
            List.of(writer));
    loop.start();
    watch.start(
        label -> {
          if (intents.labelSeen(label)) {
            loop.trigger();
          }
        });
  }

  private void label(String value) {
    TestCluster.labelConfig(client, NODE, value);
  }

  private Map<String, String> labels() {
    return client.nodes().withName(NODE).get().getMetadata().getLabels();
  }

  /** The labels with a value: the mock API server keeps a key a merge patch nulls. */
  private Map<String, String> labelsWithValues() {
    var result = new HashMap<String, String>();
    labels()
        .forEach(
            (key, value) -> {
              if (value != null) {
                result.put(key, value);
              }
            });
    return result;
  }

  private void awaitSuccess() {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(labels()).containsEntry(NodeStateWriter.STATE_LABEL, "success"));
  }

  private void assertOthersUntouched() {
    var node = client.nodes().withName(NODE).get();
    assertThat(node.getMetadata().getLabels()).containsAllEntriesOf(OTHER_LABELS);
    assertThat(node.getMetadata().getAnnotations()).containsAllEntriesOf(OTHER_ANNOTATIONS);
  }

  @Test
  void countsFollowTheLayoutAndAGoneProfileLosesItsLabel() {
    createNode(Map.of());
    startMigd(true);
    label("all-1g.5gb");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(labelsWithValues())
                    .containsEntry("nvidia.com/mig-1g.5gb.count", "7")
                    .containsEntry(CapacityLabels.MIG_CAPABLE, "true")
                    .containsEntry(CapacityLabels.MIG_STRATEGY, "mixed")
                    .containsEntry(CapacityLabels.SHARING_STRATEGY, "none")
                    .containsEntry(CapacityLabels.REPLICAS, "1"));
    assertOthersUntouched();

    label("all-3g.20gb");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(labelsWithValues())
                    .containsEntry("nvidia.com/mig-3g.20gb.count", "2")
                    .doesNotContainKey("nvidia.com/mig-1g.5gb.count"));
    assertThat(labelsWithValues().keySet().stream().filter(CapacityLabels::isCountLabel))
        .containsExactly("nvidia.com/mig-3g.20gb.count");
    assertOthersUntouched();
  }

  @Test
  void aCountLabelLeftFromAnEarlierRunIsRemovedAtStart() {
    createNode(Map.of("nvidia.com/mig-2g.10gb.count", "3"));
    startMigd(true);
    label("all-7g.40gb");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(labelsWithValues())
                    .containsEntry("nvidia.com/mig-7g.40gb.count", "1")
                    .doesNotContainKey("nvidia.com/mig-2g.10gb.count"));
    assertOthersUntouched();
  }

  @Test
  void aTimeSlicedT4IsSharedByTimeSlicingInFourReplicas() {
    createNode(Map.of());
    startMigd(true);
    label("time-sliced-t4-l4");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(labelsWithValues())
                    .containsEntry(CapacityLabels.SHARING_STRATEGY, "time-slicing")
                    .containsEntry(CapacityLabels.REPLICAS, "4")
                    .containsEntry(CapacityLabels.MIG_CAPABLE, "true"));
    assertOthersUntouched();
  }

  @Test
  void switchedOffNoneIsWrittenAndGfdsLabelsStay() {
    var gfd =
        Map.of(
            "nvidia.com/mig-1g.10gb.count",
            "7",
            CapacityLabels.MIG_STRATEGY,
            "single",
            CapacityLabels.SHARING_STRATEGY,
            "mps");
    createNode(gfd);
    startMigd(false);
    label("all-1g.5gb");
    awaitSuccess();

    assertThat(labelsWithValues())
        .containsAllEntriesOf(gfd)
        .doesNotContainKeys(
            "nvidia.com/mig-1g.5gb.count", CapacityLabels.MIG_CAPABLE, CapacityLabels.REPLICAS);
    assertOthersUntouched();
  }
}
