package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What the writer sends, and when: only on change, and again after a failed write. */
@EnableKubernetesMockClient(crud = true)
class NodeStateWriterTest {
  private static final String NODE = "gpu-3";
  private static final Desired LABEL = Desired.config(Desired.Source.LABEL, "all-1g.5gb", 4);

  KubernetesMockServer server;
  KubernetesClient client;

  private static Outcome success() {
    return new Outcome(4, new TreeMap<>(), Instant.EPOCH);
  }

  private void createNode() {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withLabels(Map.of("team", "ml"))
                .endMetadata()
                .build())
        .create();
  }

  private Map<String, String> labels() {
    return client.nodes().withName(NODE).get().getMetadata().getLabels();
  }

  @Test
  void gpuOperatorValuesForEveryState() {
    assertThat(NodeStateWriter.labelValue(GpuResult.State.SUCCESS)).isEqualTo("success");
    assertThat(NodeStateWriter.labelValue(GpuResult.State.APPLYING)).isEqualTo("pending");
    assertThat(NodeStateWriter.labelValue(GpuResult.State.BLOCKED)).isEqualTo("pending");
    assertThat(NodeStateWriter.labelValue(GpuResult.State.REBOOTING)).isEqualTo("rebooting");
    assertThat(NodeStateWriter.labelValue(GpuResult.State.FAILED)).isEqualTo("failed");
    assertThat(NodeStateWriter.labelValue(GpuResult.State.INFEASIBLE)).isEqualTo("failed");
  }

  @Test
  void thePatchNamesOnlyMigdsKeysAndNullsTheOnesToRemove() {
    assertThat(
            NodeStateWriter.patch(
                NodeStateWriter.toWrite(
                    Desired.config(Desired.Source.REST, "all-7g.40gb", 9), success())))
        .isEqualTo(
            "{\"metadata\":{\"labels\":{\"nvidia.com/mig.config.state\":\"success\"},"
                + "\"annotations\":{\"migd.io/state-reason\":\"every GPU matches the desired"
                + " layout\",\"migd.io/intent\":\"rest, generation 9\"}}}");
    assertThat(NodeStateWriter.patch(NodeStateWriter.toWrite(Desired.none(), success())))
        .isEqualTo(
            "{\"metadata\":{\"labels\":{\"nvidia.com/mig.config.state\":null},"
                + "\"annotations\":{\"migd.io/state-reason\":null,\"migd.io/intent\":null}}}");
  }

  @Test
  void writesOnlyWhenTheStateOrReasonChanged() {
    createNode();
    var writer = new NodeStateWriter(client, NODE, Runnable::run);
    writer.reconciled(LABEL, success());
    assertThat(labels()).containsEntry(NodeStateWriter.STATE_LABEL, "success");

    int before = server.getRequestCount();
    writer.reconciled(LABEL, success());
    writer.reconciled(LABEL, success());
    assertThat(server.getRequestCount()).as("no request at rest").isEqualTo(before);

    writer.reconciled(LABEL, Outcome.failed(4, "NVML is not loaded", Instant.EPOCH));
    assertThat(labels()).containsEntry(NodeStateWriter.STATE_LABEL, "failed").containsKey("team");
    assertThat(client.nodes().withName(NODE).get().getMetadata().getAnnotations())
        .containsEntry(NodeStateWriter.REASON_ANNOTATION, "NVML is not loaded");
  }

  @Test
  void aFailedWriteIsMadeAgainAtTheNextOutcome() {
    var writer = new NodeStateWriter(client, NODE, Runnable::run);
    // the Node does not exist yet: the patch fails, and must not throw into the reconcile loop
    writer.reconciled(LABEL, success());
    createNode();
    writer.reconciled(LABEL, success());
    assertThat(labels()).containsEntry(NodeStateWriter.STATE_LABEL, "success");
  }
}
