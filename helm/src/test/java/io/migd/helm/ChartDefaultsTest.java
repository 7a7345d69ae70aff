package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What {@code helm install migd helm/migd} puts in a cluster with the chart's own values. */
class ChartDefaultsTest {
  private static final Chart.Manifests CHART = Chart.render();

  @Test
  void lintsCleanInStrictMode() {
    var result = new Helm(Chart.DIR).lint().strict().call();

    assertThat(result.isFailed()).as("helm lint --strict: %s", result.getMessages()).isFalse();
  }

  @Test
  void rendersTheDaemonSetsItsAccountRbacNodePolicyConfigAndServiceOnly() {
    assertThat(CHART.kinds())
        .containsExactly(
            "ClusterRole",
            "ClusterRoleBinding",
            "ConfigMap",
            "DaemonSet",
            "DaemonSet",
            "Service",
            "ServiceAccount",
            "ValidatingAdmissionPolicy",
            "ValidatingAdmissionPolicyBinding");
  }

  @Test
  void onlyTheMigdContainerIsPrivilegedAndItSharesTheHostsPids() {
    var pod = CHART.podSpec();

    assertThat(pod.path("hostPID").asBoolean()).isTrue();
    assertThat(pod.path("enableServiceLinks").isBoolean()).isTrue();
    assertThat(pod.path("enableServiceLinks").asBoolean()).isFalse();
    assertThat(pod.path("hostNetwork").asBoolean()).isFalse();
    assertThat(pod.path("initContainers").isMissingNode()).isTrue();
    assertThat(pod.path("containers")).hasSize(1);
    assertThat(CHART.container().path("name").asString()).isEqualTo("migd");
    assertThat(CHART.container().path("securityContext").path("privileged").asBoolean()).isTrue();
    assertThat(CHART.container().path("args").get(0).asString()).isEqualTo("serve");
  }

  @Test
  void mountsTheKubeletsDirectoriesTheStateCdiAndMpsFromTheHost() {
    var hostPaths = new LinkedHashMap<String, String>();
    for (var volume : CHART.podSpec().path("volumes")) {
      if (volume.has("hostPath")) {
        hostPaths.put(
            volume.path("name").asString(), volume.path("hostPath").path("path").asString());
      }
    }
    var mounts = new LinkedHashMap<String, String>();
    for (var mount : CHART.container().path("volumeMounts")) {
      mounts.put(mount.path("name").asString(), mount.path("mountPath").asString());
    }

    assertThat(hostPaths)
        .containsExactly(
            entry("device-plugins", "/var/lib/kubelet/device-plugins"),
            entry("pod-resources", "/var/lib/kubelet/pod-resources"),
            entry("state", "/var/lib/migd"),
            entry("cdi", "/var/run/cdi"),
            entry("mps-root", "/run/nvidia/mps"));
    assertThat(mounts)
        .contains(
            entry("device-plugins", "/var/lib/kubelet/device-plugins"),
            entry("pod-resources", "/var/lib/kubelet/pod-resources"),
            entry("state", "/var/lib/migd"),
            entry("cdi", "/var/run/cdi"),
            entry("mps-root", "/run/nvidia/mps"),
            entry("config", "/etc/migd"));
  }

  @Test
  void tellsMigdItsNodeTheNvidiaRuntimeItsGpusAndWhereItsFilesAre() {
    var env = CHART.env();

    assertThat(env)
        .contains(
            entry("NODE_NAME", "fieldRef:spec.nodeName"),
            entry("NVIDIA_VISIBLE_DEVICES", "all"),
            entry("NVIDIA_MIG_CONFIG_DEVICES", "all"),
            entry("NVIDIA_MIG_MONITOR_DEVICES", "all"),
            entry("NVIDIA_DRIVER_CAPABILITIES", "compute,utility"),
            entry("MIGD_CONFIGFILE", "/etc/migd/config.yaml"),
            entry("MIGD_STATEDIR", "/var/lib/migd"),
            entry("SERVER_ADDRESS", "0.0.0.0"),
            entry("SERVER_PORT", "8080"),
            entry("MIGD_AUTH_MODE", "kubernetes"),
            entry("MIGD_AUTH_ANONYMOUSREAD", "false"),
            entry("MALLOC_ARENA_MAX", "2"),
            entry("SPRINGDOC_API_DOCS_ENABLED", "false"),
            entry("SPRINGDOC_SWAGGER_UI_ENABLED", "false"))
        .doesNotContainKeys("MIGD_CONFIG", "MIGD_MIGSTRATEGY");
    assertThat(env.get("JAVA_TOOL_OPTIONS"))
        .contains("-XX:+UseSerialGC", "-Xmx64m", "-XX:+ExitOnOutOfMemoryError");
  }

  @Test
  void rebootIsOffAndWouldRunInTheHostsNamespaces() {
    var env = CHART.env();

    assertThat(env)
        .contains(
            entry("MIGD_REBOOT_ENABLED", "false"),
            entry("MIGD_REBOOT_COMMAND", "nsenter,-t,1,-m,-u,-i,-n,-p,--,systemctl,reboot"));
  }

  @Test
  void probesAskTheHealthGroupsOnTheHttpPort() {
    var container = CHART.container();

    assertThat(container.path("ports").get(0).path("name").asString()).isEqualTo("http");
    assertThat(container.path("ports").get(0).path("containerPort").asInt()).isEqualTo(8080);
    assertThat(probe(container, "livenessProbe")).isEqualTo("/actuator/health/liveness@http");
    assertThat(probe(container, "readinessProbe")).isEqualTo("/actuator/health/readiness@http");
    assertThat(probe(container, "startupProbe")).isEqualTo("/actuator/health/liveness@http");
  }

  @Test
  void requestsAndLimitsItsResources() {
    var resources = CHART.container().path("resources");

    assertThat(resources.path("requests").path("cpu").asString()).isEqualTo("50m");
    assertThat(resources.path("requests").path("memory").asString()).isEqualTo("256Mi");
    assertThat(resources.path("limits").path("memory").asString()).isEqualTo("512Mi");
  }

  @Test
  void runsOnGpuNodesAndToleratesTheirTaint() {
    var pod = CHART.podSpec();

    assertThat(ChartDeploysAsWrittenTest.runsOn(CHART.one("DaemonSet"), Map.of()))
        .as("a node without a GPU label")
        .isFalse();
    assertThat(pod.path("tolerations").get(0).path("key").asString()).isEqualTo("nvidia.com/gpu");
    assertThat(pod.path("tolerations").get(0).path("effect").asString()).isEqualTo("NoSchedule");
    assertThat(pod.path("priorityClassName").asString()).isEqualTo("system-node-critical");
  }

  @Test
  void rbacAllowsTheNodeEventsOperandPodsAndReviewsOnly() {
    assertThat(rules(CHART))
        .containsExactly(
            "/nodes: get,list,watch,patch",
            "/events: create,patch",
            "/pods: list",
            "authentication.k8s.io/tokenreviews: create",
            "authorization.k8s.io/subjectaccessreviews: create",
            "/nodes/metrics: get");
    var binding = CHART.one("ClusterRoleBinding");
    assertThat(binding.path("subjects").get(0).path("name").asString())
        .isEqualTo(CHART.podSpec().path("serviceAccountName").asString())
        .isEqualTo(CHART.one("ServiceAccount").path("metadata").path("name").asString());
    assertThat(binding.path("subjects").get(0).path("namespace").asString())
        .isEqualTo(Chart.NAMESPACE);
    assertThat(CHART.ofKind("Role")).isEmpty();
  }

  @Test
  void theConfigMapHoldsTheShippedConfigFile() throws IOException {
    var data = CHART.one("ConfigMap").path("data");

    assertThat(data.properties()).hasSize(1);
    assertThat(data.path("config.yaml").asString())
        .isEqualTo(Files.readString(Chart.DIR.resolve("files/default.yaml")));
    assertThat(
            CHART
                .one("DaemonSet")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("checksum/config")
                .asString())
        .hasSize(64);
  }

  @Test
  void theServiceIsHeadlessOnTheHttpPortWithPodsNotReadyYet() {
    var spec = CHART.one("Service").path("spec");

    assertThat(spec.path("clusterIP").asString()).isEqualTo("None");
    assertThat(spec.path("publishNotReadyAddresses").asBoolean()).isTrue();
    assertThat(spec.path("ports").get(0).path("targetPort").asString()).isEqualTo("http");
    assertThat(spec.path("selector"))
        .isEqualTo(CHART.one("DaemonSet").path("spec").path("selector").path("matchLabels"));
  }

  static List<String> rules(Chart.Manifests chart) {
    var rules = new java.util.ArrayList<String>();
    var role = chart.named("ClusterRole", Chart.RELEASE);
    for (var rule : role.path("rules")) {
      rules.add(
          join(rule.path("apiGroups"))
              + "/"
              + join(rule.path("resources"))
              + ": "
              + join(rule.path("verbs")));
    }
    return rules;
  }

  private static String join(JsonNode array) {
    var parts = new java.util.ArrayList<String>();
    array.forEach(n -> parts.add(n.asString()));
    return String.join(",", parts);
  }

  private static String probe(JsonNode container, String name) {
    var get = container.path(name).path("httpGet");
    return get.path("path").asString() + "@" + get.path("port").asString();
  }
}
