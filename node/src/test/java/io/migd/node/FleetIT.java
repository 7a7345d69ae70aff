package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.reconcile.ReconcileSettings;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet: 20 migd instances in one JVM, each with its own copy of the simulated library (its own
 * GPUs), its own state dir, its own Node name and its own client, against one mock API server
 * holding 20 Nodes; the operator relabels all of them in one sweep.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class FleetIT {
  private static final int NODES = 20;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String MODEL = "A100-SXM4-40GB";

  /** The operator's client, and the one the assertions read with. */
  KubernetesClient client;

  KubernetesMockServer server;
  @TempDir Path dir;

  private final List<Member> fleet = new ArrayList<>();

  /** One node: its simulated GPUs, its migd and migd's own client. */
  private record Member(String name, Nvml nvml, KubernetesClient client, NodeMigd migd) {}

  @AfterEach
  void stop() {
    for (Member member : fleet) {
      member.migd().close();
      member.client().close();
      member.nvml().close();
    }
  }

  private static String name(int i) {
    return "gpu-%03d".formatted(i);
  }

  @Test
  void twentyNodesRelabelledInOneSweepAllReachSuccess() throws Exception {
    MigConfigFile configs =
        MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    for (int i = 0; i < NODES; i++) {
      client
          .nodes()
          .resource(
              new NodeBuilder()
                  .withNewMetadata()
                  .withName(name(i))
                  .withLabels(Map.of("kubernetes.io/hostname", name(i)))
                  .endMetadata()
                  .build())
          .create();
    }
    for (int i = 0; i < NODES; i++) {
      SimulatedNvml sim = SimulatedNvml.extract(dir.resolve("sim"));
      sim.init(MODEL);
      Nvml nvml =
          FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
      KubernetesClient own = server.createClient();
      Path state = Files.createDirectories(dir.resolve("state-" + i));
      NodeMigd migd =
          new NodeMigd(
              own,
              name(i),
              sim,
              nvml,
              configs,
              state,
              Optional.empty(),
              new ReconcileSettings(
                  Duration.ofMinutes(5), Duration.ofMillis(50), Duration.ofMillis(500)));
      fleet.add(new Member(name(i), nvml, own, migd));
    }

    for (int i = 0; i < NODES; i++) {
      client
          .nodes()
          .withName(name(i))
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\""
                  + NodeLabelWatch.CONFIG_LABEL
                  + "\":\"all-1g.5gb\"}}}");
    }

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(states())
                    .as("state of each node")
                    .hasSize(NODES)
                    .allSatisfy((node, state) -> assertThat(state).isEqualTo("success")));
    for (Member member : fleet) {
      assertThat(profiles(member.nvml()))
          .as("GPU 0 of %s", member.name())
          .hasSize(7)
          .containsOnly("1g.5gb");
    }
  }

  private Map<String, String> states() {
    return client.nodes().list().getItems().stream()
        .collect(
            Collectors.toMap(
                n -> n.getMetadata().getName(),
                n -> String.valueOf(n.getMetadata().getLabels().get(NodeStateWriter.STATE_LABEL))));
  }

  private static List<String> profiles(Nvml nvml) {
    return new NodeObserver(nvml, NodeMigd.CATALOG)
        .observe().gpus().getFirst().gpuInstances().stream()
            .map(LiveGpuInstance::profile)
            .map(Object::toString)
            .toList();
  }
}
