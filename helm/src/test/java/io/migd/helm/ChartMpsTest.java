package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The {@code <release>-mps} DaemonSet, the MPS supervisor's, and the MPS root migd is told: the
 * daemons live outside migd's pods, on the host path both see at the same path.
 */
class ChartMpsTest {
  private static final Chart.Manifests CHART = Chart.render();

  @Test
  void runsTheSupervisorInItsOwnDaemonSetWithoutAJvmOnTheNodesOfMigd() {
    JsonNode mps = CHART.mps();
    JsonNode pod = Chart.Manifests.podSpec(mps);
    JsonNode container = Chart.Manifests.container(mps);

    assertThat(mps.path("metadata").path("name").asString()).isEqualTo(Chart.RELEASE + "-mps");
    assertThat(mps.path("spec").path("updateStrategy").path("type").asString())
        .as("replacing its pod stops every daemon: never rolled by an upgrade")
        .isEqualTo("OnDelete");
    assertThat(pod.path("hostPID").asBoolean()).isTrue();
    assertThat(container.path("securityContext").path("privileged").asBoolean()).isTrue();
    assertThat(container.path("command"))
        .extracting(JsonNode::asString)
        .containsExactly("sh", "/opt/migd/mps-supervisor.sh");
    assertThat(Chart.Manifests.env(mps))
        .contains(entry("MPS_ROOT", "/run/nvidia/mps"), entry("NVIDIA_VISIBLE_DEVICES", "all"));
    assertThat(pod.path("nodeSelector")).isEqualTo(CHART.podSpec().path("nodeSelector"));
    assertThat(pod.path("tolerations")).isEqualTo(CHART.podSpec().path("tolerations"));
    assertThat(pod.path("runtimeClassName")).isEqualTo(CHART.podSpec().path("runtimeClassName"));
    String terms =
        pod.path("affinity")
            .path("nodeAffinity")
            .path("requiredDuringSchedulingIgnoredDuringExecution")
            .toString();
    assertThat(terms)
        .as("on every GPU node, of any node group")
        .contains("nvidia.com/gpu.present", "feature.node.kubernetes.io/pci-10de.present")
        .doesNotContain("migd.io/node-group");
  }

  @Test
  void migdsDaemonSetsNeverSelectTheSupervisorsPods() {
    Map<String, String> podLabels =
        strings(CHART.mps().path("spec").path("template").path("metadata").path("labels"));
    Map<String, String> migdSelector =
        strings(CHART.one("DaemonSet").path("spec").path("selector").path("matchLabels"));

    assertThat(podLabels).isNotEmpty();
    assertThat(podLabels.entrySet().containsAll(migdSelector.entrySet()))
        .as("migd's selector %s against the -mps pods' labels %s", migdSelector, podLabels)
        .isFalse();
  }

  @Test
  void sharesTheMpsRootWithTheHostBidirectionallyAtItsHostPath() {
    var chart = Chart.render(Map.of("hostPaths.mpsRoot", "/var/run/mps-gpu"));
    JsonNode mps = chart.mps();

    assertThat(volumeMount(mps, "mps-root").path("mountPath").asString())
        .isEqualTo("/var/run/mps-gpu");
    assertThat(volumeMount(mps, "mps-root").path("mountPropagation").asString())
        .as("each daemon's tmpfs must reach the host, where client containers mount it")
        .isEqualTo("Bidirectional");
    assertThat(Chart.Manifests.env(mps)).containsEntry("MPS_ROOT", "/var/run/mps-gpu");
    assertThat(hostPath(mps, "mps-root")).isEqualTo("/var/run/mps-gpu");
  }

  @Test
  void tellsMigdANonDefaultMpsRootAndMountsItAtTheSamePath() {
    var chart =
        Chart.render(Map.of("hostPaths.mpsRoot", "/var/run/mps-gpu", "mps.shmSize", "256MB"));
    JsonNode migd = chart.one("DaemonSet");

    assertThat(Chart.Manifests.env(migd))
        .contains(entry("MIGD_MPS_ROOT", "/var/run/mps-gpu"), entry("MIGD_MPS_SHMSIZE", "256MB"));
    assertThat(volumeMount(migd, "mps-root").path("mountPath").asString())
        .as("Allocate names host paths: migd must see the root where the host has it")
        .isEqualTo("/var/run/mps-gpu");
    assertThat(hostPath(migd, "mps-root")).isEqualTo("/var/run/mps-gpu");
  }

  @Test
  void rendersNoSupervisorWhenDisabled() {
    var chart = Chart.render(Map.of("mps.enabled", "false"));

    assertThat(chart.kinds()).containsOnlyOnce("DaemonSet");
  }

  private static Map<String, String> strings(JsonNode object) {
    var map = new LinkedHashMap<String, String>();
    object.properties().forEach(e -> map.put(e.getKey(), e.getValue().asString()));
    return map;
  }

  private static JsonNode volumeMount(JsonNode daemonSet, String name) {
    for (JsonNode mount : Chart.Manifests.container(daemonSet).path("volumeMounts")) {
      if (mount.path("name").asString().equals(name)) {
        return mount;
      }
    }
    throw new AssertionError("no volume mount " + name);
  }

  private static String hostPath(JsonNode daemonSet, String name) {
    List<JsonNode> volumes =
        Chart.Manifests.podSpec(daemonSet).path("volumes").valueStream().toList();
    return volumes.stream()
        .filter(v -> v.path("name").asString().equals(name))
        .findFirst()
        .orElseThrow()
        .path("hostPath")
        .path("path")
        .asString();
  }
}
