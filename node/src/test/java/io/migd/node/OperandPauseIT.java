package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.nvml.Nvml;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.OperandPause;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.sim.MutableClock;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MIG mode change that a client NVML does not list holds (DCGM under dcgm-exporter) pauses the
 * GPU Operator's operands as mig-manager does: migd against the fabric8 mock API server in CRUD
 * mode, on a simulated A100 (an Ampere GPU, whose mode change such a holder blocks).
 */
@EnableKubernetesMockClient(crud = true)
class OperandPauseIT {
  private static final String NODE = "gpu-3";
  private static final String OPERATOR = "gpu-operator";
  private static final String PREFIX = OperandPause.DEPLOY_LABEL_PREFIX;
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final List<String> OPERANDS =
      List.of("device-plugin", "gpu-feature-discovery", "dcgm-exporter", "dcgm", "nvsm", "client");

  private static SimulatedNvml sim;
  private static Nvml nvml;
  private static MigConfigFile configs;

  KubernetesClient client;
  KubernetesMockServer server;
  @TempDir Path stateDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T05:00:00Z"));
  private final Map<String, Pod> pods = new ConcurrentSkipListMap<>();

  @BeforeAll
  static void gpus() {
    sim = TestCluster.simulatedA100("sim-operands");
    nvml = TestCluster.open(sim);
    configs = TestCluster.shippedConfigs("default.yaml");
  }

  @AfterAll
  static void closeNvml() {
    nvml.close();
  }

  @BeforeEach
  void operatorNode() {
    sim.init("A100-SXM4-40GB");
    // nv-hostengine, DCGM's engine inside dcgm-exporter, holds the GPU without computing
    sim.require("attach", "--gpu", "0", "--holder", "--pid", "4242", "--name", "nv-hostengine");
    var labels = new LinkedHashMap<String, String>();
    labels.put("kubernetes.io/hostname", NODE);
    labels.put(PREFIX + "device-plugin", "true");
    labels.put(PREFIX + "gpu-feature-discovery", "true");
    labels.put(PREFIX + "dcgm-exporter", "true");
    labels.put(PREFIX + "dcgm", "false");
    labels.put(PREFIX + "client", "true");
    labels.put(PREFIX + "driver", "true");
    client.nodes().withName(NODE).delete();
    client.pods().inNamespace(OPERATOR).delete();
    TestCluster.createNode(client, NODE, labels, Map.of());
    // the CRUD mock ignores field selectors other than metadata's: the pods listed by node are
    // answered as the API server would, from the pods this test created and has not deleted
    server
        .expect()
        .get()
        .withPath("/api/v1/pods?fieldSelector=spec.nodeName%3D" + NODE)
        .andReply(
            200,
            request ->
                new PodListBuilder()
                    .withItems(
                        pods.values().stream()
                            .filter(p -> NODE.equals(p.getSpec().getNodeName()))
                            .toList())
                    .build())
        .always();
    pod(OPERATOR, "nvidia-dcgm-exporter-x7k2p", NODE, "dcgm-exporter");
    pod(OPERATOR, "gpu-feature-discovery-9qv4t", NODE, "gpu-feature-discovery");
    pod(OPERATOR, "nvidia-driver-daemonset-2mz8c", NODE, "driver");
    pod(OPERATOR, "nvidia-dcgm-exporter-on-another-node", "gpu-4", "dcgm-exporter");
  }

  @AfterEach
  void letGo() {
    // the holder may be gone already (exit 1 then)
    sim.control("detach", "--pid", "4242");
  }

  @Test
  void pausesTheOperandsUntilTheirPodsGoThenChangesTheModeAndSetsThemBack() {
    Reconciler reconciler = reconciler(pause());

    GpuResult waiting = gpu0(reconciler.reconcile(allEnabled(1)));
    assertThat(waiting).isInstanceOf(GpuResult.AwaitingModeChange.class);
    assertThat(((GpuResult.AwaitingModeChange) waiting).holders())
        .containsExactly(
            "pod gpu-operator/gpu-feature-discovery-9qv4t",
            "pod gpu-operator/nvidia-dcgm-exporter-x7k2p");
    assertThat(reason(waiting))
        .contains("nvidia.com/gpu.deploy.dcgm-exporter")
        .contains("=paused-for-mig-change")
        .contains("waits up to 5m more for their pods to leave the node");
    assertThat(deployLabels())
        .containsEntry("device-plugin", OperandPause.PAUSED)
        .containsEntry("gpu-feature-discovery", OperandPause.PAUSED)
        .containsEntry("dcgm-exporter", OperandPause.PAUSED)
        .containsEntry("client", OperandPause.PAUSED)
        .containsEntry("dcgm", "false")
        .containsEntry("driver", "true")
        .doesNotContainKey("nvsm");
    assertThat(stateDir.resolve(OperandPause.FILE)).exists();

    // the DaemonSets take their pods off the node; DCGM's engine goes with its pod
    deletePod("nvidia-dcgm-exporter-x7k2p");
    deletePod("gpu-feature-discovery-9qv4t");
    sim.require("detach", "--pid", "4242");
    clock.advance(Duration.ofSeconds(40));

    Outcome done = reconciler.reconcile(allEnabled(1));
    assertThat(gpu0(done)).isInstanceOf(GpuResult.Applied.class);
    assertThat(deployLabels())
        .containsEntry("device-plugin", "true")
        .containsEntry("gpu-feature-discovery", "true")
        .containsEntry("dcgm-exporter", "true")
        .containsEntry("client", "true")
        .containsEntry("dcgm", "false");
    assertThat(stateDir.resolve(OperandPause.FILE)).doesNotExist();
  }

  @Test
  void aPodThatStaysPastTheTimeoutFailsTheGpuAndTheLabelsAreSetBack() {
    Reconciler reconciler = reconciler(pause());
    assertThat(gpu0(reconciler.reconcile(allEnabled(1))))
        .isInstanceOf(GpuResult.AwaitingModeChange.class);
    deletePod("gpu-feature-discovery-9qv4t");

    clock.advance(Duration.ofMinutes(2));
    GpuResult stillWaiting = gpu0(reconciler.reconcile(allEnabled(1)));
    assertThat(reason(stillWaiting))
        .contains("waits up to 3m more")
        .contains("gpu-operator/nvidia-dcgm-exporter-x7k2p")
        .doesNotContain("gpu-feature-discovery-9qv4t");
    assertThat(deployLabels()).containsEntry("dcgm-exporter", OperandPause.PAUSED);

    clock.advance(Duration.ofMinutes(3));
    GpuResult timedOut = gpu0(reconciler.reconcile(allEnabled(1)));
    assertThat(timedOut).isInstanceOf(GpuResult.Failed.class);
    assertThat(reason(timedOut))
        .contains("gpu-operator/nvidia-dcgm-exporter-x7k2p")
        .contains("did not leave the node within migd.pause.timeout (5m)")
        .contains("set back to true");
    assertThat(deployLabels())
        .containsEntry("dcgm-exporter", "true")
        .containsEntry("device-plugin", "true")
        .containsEntry("client", "true");
    assertThat(stateDir.resolve(OperandPause.FILE)).doesNotExist();

    // the retries within the next timeout do not cycle the operands again
    clock.advance(Duration.ofMinutes(1));
    assertThat(gpu0(reconciler.reconcile(allEnabled(1)))).isInstanceOf(GpuResult.Failed.class);
    assertThat(deployLabels()).containsEntry("dcgm-exporter", "true");
  }

  @Test
  void aRestartSetsBackTheOperandsThePreviousRunPaused() {
    reconciler(pause()).reconcile(allEnabled(1));
    assertThat(deployLabels()).containsEntry("dcgm-exporter", OperandPause.PAUSED);
    // someone turned GFD off while migd was down: it stays off
    setLabel("gpu-feature-discovery", "false");

    pause();

    assertThat(deployLabels())
        .containsEntry("dcgm-exporter", "true")
        .containsEntry("device-plugin", "true")
        .containsEntry("client", "true")
        .containsEntry("gpu-feature-discovery", "false");
    assertThat(stateDir.resolve(OperandPause.FILE)).doesNotExist();
  }

  @Test
  void withoutOperandsOnTheNodeNothingIsPausedAndTheGpuWaitsForItsHolder() {
    client
        .nodes()
        .withName(NODE)
        .edit(
            n -> {
              n.getMetadata().getLabels().keySet().removeIf(k -> k.startsWith(PREFIX));
              return n;
            });

    GpuResult waiting = gpu0(reconciler(pause()).reconcile(allEnabled(1)));

    assertThat(reason(waiting)).contains("a client that NVML does not list");
    assertThat(deployLabels()).isEmpty();
    assertThat(stateDir.resolve(OperandPause.FILE)).doesNotExist();
  }

  @Test
  void anEmptyOperandListTurnsPausingOff() {
    var pause =
        OperandPause.start(
            new OperandPause.Settings(List.of(), TIMEOUT), operands(), stateDir, clock);

    GpuResult waiting = gpu0(reconciler(pause).reconcile(allEnabled(1)));

    assertThat(reason(waiting)).contains("a client that NVML does not list");
    assertThat(deployLabels()).containsEntry("dcgm-exporter", "true");
  }

  private OperandPause pause() {
    return OperandPause.start(
        new OperandPause.Settings(OPERANDS, TIMEOUT), operands(), stateDir, clock);
  }

  private OperandLabels operands() {
    return new OperandLabels(client, NODE, RequestBudget.nodeDefaults());
  }

  private Reconciler reconciler(OperandPause pause) {
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    return Reconciler.over(
            nvml,
            NodeMigd.CATALOG,
            configs::config,
            ProgressListener.NONE,
            reset,
            RebootPolicy.DISABLED)
        .withOperandPause(pause);
  }

  private static Desired allEnabled(long generation) {
    return Desired.config(Desired.Source.FILE, "all-enabled", generation);
  }

  private static GpuResult gpu0(Outcome outcome) {
    return outcome.gpus().get(new GpuIndex(0)).result();
  }

  private static String reason(GpuResult result) {
    return switch (result) {
      case GpuResult.AwaitingModeChange(var holders, var reason) -> reason;
      case GpuResult.Failed(var step, var code, var reason) -> reason;
      default -> throw new AssertionError("not waiting or failed: " + result);
    };
  }

  private Map<String, String> deployLabels() {
    var labels = new LinkedHashMap<String, String>();
    client
        .nodes()
        .withName(NODE)
        .get()
        .getMetadata()
        .getLabels()
        .forEach(
            (k, v) -> {
              if (k.startsWith(PREFIX)) {
                labels.put(k.substring(PREFIX.length()), v);
              }
            });
    return labels;
  }

  private void setLabel(String operand, String value) {
    client
        .nodes()
        .withName(NODE)
        .edit(
            n -> {
              n.getMetadata().getLabels().put(PREFIX + operand, value);
              return n;
            });
  }

  private void pod(String namespace, String name, String node, String operand) {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .withNodeSelector(Map.of(PREFIX + operand, "true"))
            .endSpec()
            .build();
    client.pods().inNamespace(namespace).resource(pod).create();
    pods.put(namespace + "/" + name, pod);
  }

  private void deletePod(String name) {
    client.pods().inNamespace(OPERATOR).withName(name).delete();
    pods.remove(OPERATOR + "/" + name);
  }
}
