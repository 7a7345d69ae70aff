package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A node's migd may change only its own Node, only migd's label keys and {@code migd.io/}
 * annotations, and create Events only about its node: the admission policy, evaluated with CEL as
 * the API server would; where the cluster cannot serve it, the chart refuses unless told to accept
 * the wider access.
 */
class ChartNodePolicyTest {
  private static final Chart.Manifests CHART = Chart.render();
  private static final JsonNode POLICY = CHART.named("ValidatingAdmissionPolicy", "migd-nodes");

  @Test
  void migdRelabelsItsOwnNodeWithItsOwnKeys() {
    var before = node("node-a", Map.of("kubernetes.io/hostname", "node-a"), Map.of());
    var after =
        node(
            "node-a",
            Map.of(
                "kubernetes.io/hostname", "node-a",
                "nvidia.com/mig.config.state", "success",
                "nvidia.com/mig-1g.10gb.count", "7",
                "nvidia.com/gpu.sharing-strategy", "none"),
            Map.of("migd.io/state-reason", "in sync"));

    assertThat(updateNode("node-a", after, before)).isEmpty();
    assertThat(updateNode("node-a", before, after)).as("and removes them").isEmpty();
  }

  @Test
  void migdCannotTouchAnotherNodeOrForeignKeysOrTheSpec() {
    var plain = node("node-b", Map.of(), Map.of());

    assertThat(
            updateNode(
                "node-a",
                node("node-b", Map.of("nvidia.com/mig.config.state", "x"), Map.of()),
                plain))
        .hasValueSatisfying(m -> assertThat(m).contains("may change only that Node, not node-b"));
    var own = node("node-a", Map.of(), Map.of());
    assertThat(
            updateNode(
                "node-a",
                node("node-a", Map.of("node-role.kubernetes.io/control-plane", ""), Map.of()),
                own))
        .hasValueSatisfying(
            m -> assertThat(m).endsWith("not node-role.kubernetes.io/control-plane"));
    assertThat(
            updateNode(
                "node-a",
                node("node-a", Map.of(), Map.of("cluster-autoscaler/scale-down", "x")),
                own))
        .hasValueSatisfying(m -> assertThat(m).endsWith("not cluster-autoscaler/scale-down"));
    var cordoned = new HashMap<>(own);
    cordoned.put("spec", Map.of("unschedulable", true));
    assertThat(updateNode("node-a", cordoned, own))
        .hasValueSatisfying(m -> assertThat(m).endsWith("not its spec"));
    assertThat(updateNode(null, own, own))
        .hasValueSatisfying(m -> assertThat(m).contains("its token names no node"));
  }

  @Test
  void migdCreatesEventsAboutItsOwnNodeOnly() {
    assertThat(event("node-a", "Node", "node-a")).isEmpty();
    assertThat(event("node-a", "Node", "node-b"))
        .hasValueSatisfying(m -> assertThat(m).endsWith("not about node node-b"));
    assertThat(event("node-a", "Pod", "web-0"))
        .hasValueSatisfying(m -> assertThat(m).endsWith("not about another object"));
  }

  @Test
  void otherUsersAreNotMatched() {
    var request = ChartCelTest.request("UPDATE", "system:node:node-a", "node-a");

    assertThat(
            CelExpressions.test(
                POLICY.path("spec").path("matchConditions").get(0).path("expression").asString(),
                Map.of("request", request)))
        .isFalse();
  }

  @Test
  void whereTheClusterCannotServeItTheChartRefusesUnlessTheWiderAccessIsAccepted() {
    assertThatThrownBy(() -> Chart.render(Map.of(), "1.29.0"))
        .hasMessageContaining("nodes.restrict needs ValidatingAdmissionPolicy")
        .hasMessageContaining("set nodes.restrict=false");
    var open = Chart.render(Map.of("nodes.restrict", "false"), "1.29.0");
    assertThat(open.ofKind("ValidatingAdmissionPolicy")).isEmpty();
    String notes =
        new Helm(Chart.DIR)
            .install()
            .withName(Chart.RELEASE)
            .withNamespace(Chart.NAMESPACE)
            .withKubeVersion("1.29.0")
            .set("nodes.restrict", "false")
            .clientOnly()
            .dryRun()
            .call()
            .getOutput();
    assertThat(notes).contains("every node's", "migd can relabel every node");
  }

  private static Optional<String> updateNode(String tokenNode, Object object, Object oldObject) {
    var request = new LinkedHashMap<>(ChartCelTest.request("UPDATE", ChartCelTest.MIGD, tokenNode));
    request.put("resource", Map.of("group", "", "version", "v1", "resource", "nodes"));
    return ChartCelTest.admit(POLICY, request, object, oldObject);
  }

  private static Optional<String> event(String tokenNode, String kind, String name) {
    var request = new LinkedHashMap<>(ChartCelTest.request("CREATE", ChartCelTest.MIGD, tokenNode));
    request.put("resource", Map.of("group", "", "version", "v1", "resource", "events"));
    var event = Map.of("involvedObject", Map.of("kind", kind, "name", name));
    return ChartCelTest.admit(POLICY, request, event, Map.of());
  }

  private static Map<String, Object> node(
      String name, Map<String, String> labels, Map<String, String> annotations) {
    return Map.of(
        "metadata", Map.of("name", name, "labels", labels, "annotations", annotations),
        "spec", Map.of("podCIDR", "10.0.0.0/24"));
  }
}
