package io.migd.node;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/** What the node tests share: simulated GPUs, the shipped configs, and Nodes of the mock server. */
final class TestCluster {
  private TestCluster() {}

  /** A copy of the simulated library in {@code target/<dir>}, holding one A100. */
  static SimulatedNvml simulatedA100(String dir) {
    SimulatedNvml sim = SimulatedNvml.extract(Path.of("target", dir).toAbsolutePath());
    sim.init("A100-SXM4-40GB");
    return sim;
  }

  /** NVML over that copy, through the real FFM path. */
  static Nvml open(SimulatedNvml sim) {
    return FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
  }

  /** A config file of the repository's {@code profiles/configs/}. */
  static MigConfigFile shippedConfigs(String fileName) {
    try {
      return MigConfigParser.parse(Path.of("..", "profiles", "configs", fileName));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates a Node with the labels and annotations others own. */
  static void createNode(
      KubernetesClient client,
      String name,
      Map<String, String> labels,
      Map<String, String> annotations) {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .build())
        .create();
  }

  /** Sets (or, with null, removes) the config label as an operator's kubectl would. */
  static void labelConfig(KubernetesClient client, String node, String value) {
    String json = value == null ? "null" : "\"" + value + "\"";
    client
        .nodes()
        .withName(node)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"" + NodeLabelWatch.CONFIG_LABEL + "\":" + json + "}}}");
  }
}
