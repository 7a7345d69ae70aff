package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.marcnuri.helm.Helm;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One DaemonSet per node group, each on its own nodes and in its own kubelet mode; the default is
 * the one DaemonSet the chart always had.
 */
class ChartNodeGroupsTest {
  private static final String KUBERNETES = "1.36.0";
  private static final Chart.Manifests GROUPS = Chart.render("node-groups", Map.of(), KUBERNETES);

  @Test
  void theDefaultIsOneDeviceDaemonSetNamedAfterTheReleaseAsBefore() {
    var chart = Chart.render();
    var daemonSet = chart.one("DaemonSet");

    assertThat(chart.names("DaemonSet")).containsExactly(Chart.RELEASE);
    assertThat(daemonSet.path("spec").path("selector").path("matchLabels").properties())
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder("app.kubernetes.io/name", "app.kubernetes.io/instance");
    assertThat(chart.env()).doesNotContainKeys("MIGD_KUBELET_MODE", "MIGD_DRA_DRIVERNAME");
    assertThat(chart.env()).contains(entry("MIGD_CDI_ENABLED", "false"));
    assertThat(chart.names("ValidatingAdmissionPolicy")).containsExactly("migd-nodes");
    assertThat(chart.ofKind("DeviceClass")).isEmpty();
  }

  @Test
  void rollsOneNodeAtATimeWithoutASecondPodOnTheNode() {
    var rolling = Chart.render().one("DaemonSet").path("spec").path("updateStrategy");

    assertThat(rolling.path("type").asString()).isEqualTo("RollingUpdate");
    assertThat(rolling.path("rollingUpdate").path("maxUnavailable").asInt()).isEqualTo(1);
    assertThat(rolling.path("rollingUpdate").path("maxSurge").isInt()).isTrue();
    assertThat(rolling.path("rollingUpdate").path("maxSurge").asInt()).isZero();
  }

  @Test
  void eachGroupIsADaemonSetOnItsOwnNodesSelectingOnlyItsOwnPods() {
    var a100 = GROUPS.named("DaemonSet", "migd-a100");
    var h100 = GROUPS.named("DaemonSet", "migd-h100");

    assertThat(GROUPS.names("DaemonSet")).containsExactly("migd", "migd-a100", "migd-h100");
    assertThat(nodeSelector(a100))
        .containsExactly(entry("gpu-pool", "a100"), entry("migd.io/node-group", "a100"));
    assertThat(nodeSelector(h100))
        .containsExactly(entry("gpu-pool", "h100"), entry("migd.io/node-group", "h100"));
    assertThat(selector(a100)).containsEntry("migd.io/node-group", "a100");
    assertThat(selector(h100)).containsEntry("migd.io/node-group", "h100");
    for (var daemonSet : List.of(a100, h100)) {
      assertThat(podLabels(daemonSet)).containsAllEntriesOf(selector(daemonSet));
      // the one headless Service (and so the ServiceMonitor) reaches every group's pods
      assertThat(podLabels(daemonSet))
          .containsAllEntriesOf(labels(GROUPS.one("Service").path("spec").path("selector")));
    }
  }

  @Test
  void eachGroupHasItsModeAndItsConfig() {
    var a100 = Chart.Manifests.env(GROUPS.named("DaemonSet", "migd-a100"));
    var h100 = Chart.Manifests.env(GROUPS.named("DaemonSet", "migd-h100"));

    assertThat(a100).doesNotContainKeys("MIGD_KUBELET_MODE", "MIGD_CONFIG");
    assertThat(h100)
        .contains(entry("MIGD_KUBELET_MODE", "dra"), entry("MIGD_CONFIG", "all-dynamic"));
  }

  @Test
  void aDevicePluginGroupRendersAsTheDefaultDaemonSetDoes() {
    var group =
        Chart.render(
            Map.of(
                "nodeGroups[0].name", "a100",
                "nodeGroups[0].nodeSelector.gpu-pool", "a100",
                "nodeGroups[0].kubelet.mode", "device-plugin"));
    var before = Chart.render();
    var pod = Chart.Manifests.podSpec(group.named("DaemonSet", "migd-a100"));

    assertThat(pod.path("containers")).isEqualTo(before.podSpec().path("containers"));
    assertThat(pod.path("volumes")).isEqualTo(before.podSpec().path("volumes"));
    assertThat(ChartDefaultsTest.rules(group)).isEqualTo(ChartDefaultsTest.rules(before));
    assertThat(group.kinds().stream().distinct().toList())
        .isEqualTo(before.kinds().stream().distinct().toList());
  }

  @Test
  void aGroupCanDropOneOfTheChartsNodeLabels() {
    var chart =
        Chart.render(
            Map.of(
                "nodeSelector.rack", "r1",
                "nodeGroups[0].name", "lab",
                "nodeGroups[0].nodeSelector.rack", "null",
                "nodeGroups[0].nodeSelector.lab", "yes"));

    assertThat(nodeSelector(chart.named("DaemonSet", "migd-lab")))
        .containsExactly(entry("lab", "yes"), entry("migd.io/node-group", "lab"));
    assertThat(nodeSelector(chart.named("DaemonSet", "migd"))).containsExactly(entry("rack", "r1"));
  }

  @Test
  void twoGroupsWithoutANameAreRefused() {
    assertThatThrownBy(
            () ->
                Chart.render(
                    Map.of(
                        "nodeGroups[0].kubelet.mode", "device-plugin",
                        "nodeGroups[1].kubelet.mode", "dra"),
                    KUBERNETES))
        .hasMessageContaining("nodeGroups[1] has no name, and another group has none");
  }

  @Test
  void twoGroupsOfOneNameAreRefused() {
    assertThatThrownBy(
            () ->
                Chart.render(
                    Map.of("nodeGroups[0].name", "gpu", "nodeGroups[1].name", "gpu"), KUBERNETES))
        .hasMessageContaining("nodeGroups[1]: the name gpu is taken");
  }

  @Test
  void anUnknownModeOrGroupKeyFailsNamingIt() {
    assertThatThrownBy(() -> Chart.render(Map.of("nodeGroups[0].kubelet.mode", "cdi")))
        .hasMessageContaining("/nodeGroups/0/kubelet/mode");
    assertThatThrownBy(() -> Chart.render(Map.of("nodeGroups[0].selector.a", "b")))
        .hasMessageContaining("additional properties 'selector' not allowed");
  }

  @Test
  void theInstallNotesNameEachGroupsDaemonSetModeAndNodes() {
    var notes =
        new Helm(Chart.DIR)
            .install()
            .withName(Chart.RELEASE)
            .withNamespace(Chart.NAMESPACE)
            .withKubeVersion(KUBERNETES)
            .withValuesFile(Chart.valuesPath("node-groups"))
            .clientOnly()
            .dryRun()
            .call()
            .getOutput();

    assertThat(notes)
        .contains(
            "DaemonSet migd (device-plugin) on the GPU nodes without a migd.io/node-group label",
            "DaemonSet migd-a100 (device-plugin) on the GPU nodes labelled"
                + " migd.io/node-group=a100 and matching {\"gpu-pool\":\"a100\"}",
            "DaemonSet migd-h100 (dra) on the GPU nodes labelled migd.io/node-group=h100",
            "kubectl label node NODE migd.io/node-group=GROUP --overwrite",
            "kubectl get resourceslices --field-selector spec.nodeName=NODE");
  }

  private static Map<String, String> nodeSelector(JsonNode daemonSet) {
    return labels(Chart.Manifests.podSpec(daemonSet).path("nodeSelector"));
  }

  private static Map<String, String> selector(JsonNode daemonSet) {
    return labels(daemonSet.path("spec").path("selector").path("matchLabels"));
  }

  private static Map<String, String> podLabels(JsonNode daemonSet) {
    return labels(daemonSet.path("spec").path("template").path("metadata").path("labels"));
  }

  private static Map<String, String> labels(JsonNode map) {
    var labels = new TreeMap<String, String>();
    map.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
    return labels;
  }
}
