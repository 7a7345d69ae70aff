package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a platform engineer would hit on the first real node, rendered: the runtime class, the grace
 * period, the nodes the pods land on, node groups that move one node at a time, the host paths migd
 * is told of, CDI's mounts, the verb the REST check asks, the actuator's details, and the image the
 * chart names.
 */
class ChartDeploysAsWrittenTest {
  private static final Chart.Manifests CHART = Chart.render();

  @Test
  void runsUnderTheNvidiaRuntimeClassUnlessToldOtherwise() {
    assertThat(CHART.podSpec().path("runtimeClassName").asString()).isEqualTo("nvidia");
    assertThat(
            Chart.render(Map.of("runtimeClassName", "nvidia-cdi"))
                .podSpec()
                .path("runtimeClassName")
                .asString())
        .isEqualTo("nvidia-cdi");
    assertThat(Chart.render(Map.of("runtimeClassName", "")).podSpec().has("runtimeClassName"))
        .as("empty: the node's default runtime")
        .isFalse();
  }

  @Test
  void theGracePeriodCoversAGpuResetAndAShorterOneIsRefused() {
    assertThat(CHART.podSpec().path("terminationGracePeriodSeconds").asInt())
        .as("the reset command's 120 s and NVML's re-initialisation after it")
        .isGreaterThanOrEqualTo(200);
    assertThatThrownBy(() -> Chart.render(Map.of("terminationGracePeriodSeconds", "30")))
        .hasMessageContaining("terminationGracePeriodSeconds 30 is shorter than a GPU reset");
  }

  @Test
  void landsOnGpuNodesLabelledByTheOperatorByNfdOrByHand() {
    var daemonSet = CHART.one("DaemonSet");

    assertThat(Chart.Manifests.podSpec(daemonSet).has("nodeSelector")).isFalse();
    assertThat(runsOn(daemonSet, Map.of("nvidia.com/gpu.present", "true"))).isTrue();
    assertThat(runsOn(daemonSet, Map.of("feature.node.kubernetes.io/pci-10de.present", "true")))
        .as("Node Feature Discovery's NVIDIA PCI vendor label, without the GPU Operator")
        .isTrue();
    assertThat(runsOn(daemonSet, Map.of("migd.io/enabled", "true"))).isTrue();
    assertThat(runsOn(daemonSet, Map.of("kubernetes.io/os", "linux"))).isFalse();
  }

  @Test
  void namingGroupsMovesNoNodeAndEveryGpuNodeRunsExactlyOneMigd() {
    var groups =
        Chart.render(
            Map.of(
                "nodeGroups[0].kubelet.mode", "device-plugin",
                "nodeGroups[1].name", "h100",
                "nodeGroups[1].kubelet.mode", "dra",
                "nodeGroups[1].config", "all-dynamic"),
            "1.36.0");
    var before = CHART.one("DaemonSet");
    var after = groups.named("DaemonSet", Chart.RELEASE);

    assertThat(groups.names("DaemonSet")).containsExactly(Chart.RELEASE, Chart.RELEASE + "-h100");
    assertThat(after.path("spec").path("selector")).isEqualTo(before.path("spec").path("selector"));
    assertThat(after.path("spec").path("template"))
        .as("the default DaemonSet's pods are not replaced: no node restarts")
        .isEqualTo(before.path("spec").path("template"));
    var unlabelled = Map.of("nvidia.com/gpu.present", "true");
    var moved = Map.of("nvidia.com/gpu.present", "true", "migd.io/node-group", "h100");
    assertThat(groups.ofKind("DaemonSet").stream().filter(d -> runsOn(d, unlabelled)))
        .extracting(d -> d.path("metadata").path("name").asString())
        .containsExactly(Chart.RELEASE);
    assertThat(groups.ofKind("DaemonSet").stream().filter(d -> runsOn(d, moved)))
        .extracting(d -> d.path("metadata").path("name").asString())
        .containsExactly(Chart.RELEASE + "-h100");
  }

  @Test
  void withOnlyNamedGroupsTheUnlabelledNodesKeepTheDefaultDaemonSet() {
    var groups = Chart.render("node-groups", Map.of(), "1.36.0");

    assertThat(groups.names("DaemonSet"))
        .containsExactly(Chart.RELEASE, Chart.RELEASE + "-a100", Chart.RELEASE + "-h100");
    assertThat(groups.named("DaemonSet", Chart.RELEASE).path("spec").path("template"))
        .isEqualTo(CHART.one("DaemonSet").path("spec").path("template"));
  }

  @Test
  void everyHostPathIsMountedAtItsOwnPathAndNamedToMigd() {
    var paths = new LinkedHashMap<String, Object>();
    paths.put("hostPaths.devicePlugins", "/k/dp");
    paths.put("hostPaths.podResources", "/k/pr");
    paths.put("hostPaths.stateDir", "/k/state");
    paths.put("hostPaths.cdi", "/etc/cdi");
    paths.put("hostPaths.mpsRoot", "/k/mps");
    paths.put("hostPaths.pluginsRegistry", "/k/registry");
    paths.put("hostPaths.kubeletPlugins", "/k/plugins");
    var plugin = Chart.render(paths);
    var dra = new LinkedHashMap<>(paths);
    dra.put("nodeGroups[0].kubelet.mode", "dra");
    var draChart = Chart.render(dra, "1.36.0");

    assertThat(Chart.Manifests.env(plugin.one("DaemonSet")))
        .contains(
            entry("MIGD_KUBELET_DEVICEPLUGINDIR", "/k/dp"),
            entry("MIGD_KUBELET_PODRESOURCESSOCKET", "/k/pr/kubelet.sock"),
            entry("MIGD_STATEDIR", "/k/state"),
            entry("MIGD_CDI_DIR", "/etc/cdi"),
            entry("MIGD_MPS_ROOT", "/k/mps"));
    assertThat(Chart.Manifests.env(draChart.one("DaemonSet")))
        .contains(
            entry("MIGD_DRA_REGISTRYDIR", "/k/registry"),
            entry("MIGD_DRA_PLUGINDIR", "/k/plugins/gpu.nvidia.com"));
    for (var chart : List.of(plugin, draChart)) {
      var daemonSet = chart.one("DaemonSet");
      var env = Chart.Manifests.env(daemonSet);
      var mounted = hostPathsMounted(daemonSet);
      assertThat(mounted).isNotEmpty();
      mounted.forEach(
          (host, inContainer) -> {
            assertThat(inContainer).as("%s mounted at its own path", host).isEqualTo(host);
            if (!host.equals("/")) {
              assertThat(env.values())
                  .as("%s named to migd", host)
                  .anyMatch(value -> value.equals(host) || value.startsWith(host + "/"));
            }
          });
    }
  }

  @Test
  void cdiMountsTheDriverRootReadOnlyAndTheHostsHookAndNamesThem() {
    var chart =
        Chart.render(
            Map.of(
                "migd.cdi.enabled", "true",
                "driverRoot", "/run/nvidia/driver",
                "migd.cdi.hookPath", "/usr/local/nvidia/toolkit/nvidia-cdi-hook"));
    var volumes = volumes(chart.one("DaemonSet"));
    var mounts = mounts(chart.one("DaemonSet"));

    assertThat(volumes.get("driver-root").path("hostPath").path("path").asString())
        .isEqualTo("/run/nvidia/driver");
    assertThat(mounts.get("driver-root").path("mountPath").asString()).isEqualTo("/driver-root");
    assertThat(mounts.get("driver-root").path("readOnly").asBoolean()).isTrue();
    assertThat(volumes.get("cdi-hook").path("hostPath").path("type").asString())
        .as("the pod does not start without the hook")
        .isEqualTo("File");
    assertThat(mounts.get("cdi-hook").path("mountPath").asString())
        .isEqualTo("/usr/local/nvidia/toolkit/nvidia-cdi-hook");
    assertThat(chart.env())
        .contains(
            entry("MIGD_CDI_ENABLED", "true"),
            entry("MIGD_CDI_DRIVERROOT", "/run/nvidia/driver"),
            entry("MIGD_CDI_CONTAINERDRIVERROOT", "/driver-root"),
            entry("MIGD_CDI_HOOKPATH", "/usr/local/nvidia/toolkit/nvidia-cdi-hook"));
    assertThat(volumes(CHART.one("DaemonSet"))).doesNotContainKeys("driver-root", "cdi-hook");
    var dra = Chart.render(Map.of("nodeGroups[0].kubelet.mode", "dra"), "1.36.0");
    assertThat(dra.env()).containsEntry("MIGD_CDI_CONTAINERDRIVERROOT", "/driver-root");
    assertThat(volumes(dra.one("DaemonSet"))).containsKeys("driver-root", "cdi-hook");
  }

  @Test
  void theRestChecksAVerbTheAccountHasSoStatusWorksInThePod() {
    String verb = CHART.env().get("MIGD_AUTH_VERB");

    assertThat(CHART.env())
        .as("migd status sends the pod's own token")
        .containsEntry(
            "MIGD_AUTH_TOKENFILE", "/var/run/secrets/kubernetes.io/serviceaccount/token");

    assertThat(ChartDefaultsTest.rules(CHART))
        .filteredOn(rule -> rule.startsWith("/nodes:"))
        .singleElement()
        .satisfies(
            rule -> assertThat(rule.substring(rule.indexOf(':') + 2).split(",")).contains(verb));
  }

  @Test
  void theActuatorAnswersWithoutDetails() {
    assertThat(CHART.env()).containsEntry("MANAGEMENT_ENDPOINT_HEALTH_SHOWDETAILS", "never");
  }

  @Test
  void theProbesAreTheTwoPathsMigdLeavesOpen() {
    var container = CHART.container();
    assertThat(container.path("startupProbe").path("httpGet").path("path").asString())
        .isEqualTo("/actuator/health/liveness");
    assertThat(container.path("livenessProbe").path("httpGet").path("path").asString())
        .isEqualTo("/actuator/health/liveness");
    assertThat(container.path("readinessProbe").path("httpGet").path("path").asString())
        .isEqualTo("/actuator/health/readiness");
  }

  @Test
  void theScrapeSendsATokenThatMayOnlyGetTheNodesMetrics() {
    var chart = Chart.render(Map.of("serviceMonitor.enabled", "true"));
    var credentials = scrapeCredentials(chart);
    var secret = chart.named("Secret", credentials.path("name").asString());
    String account = Chart.RELEASE + "-scrape";

    assertThat(credentials.path("key").asString()).isEqualTo("token");
    assertThat(secret.path("type").asString()).isEqualTo("kubernetes.io/service-account-token");
    assertThat(
            secret
                .path("metadata")
                .path("annotations")
                .path("kubernetes.io/service-account.name")
                .asString())
        .isEqualTo(account);
    assertThat(chart.named("ServiceAccount", account)).isNotNull();
    var binding = chart.named("ClusterRoleBinding", account);
    assertThat(binding.path("subjects").get(0).path("name").asString()).isEqualTo(account);
    assertThat(
            chart
                .named("ClusterRole", binding.path("roleRef").path("name").asString())
                .path("rules"))
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.path("resources").get(0).asString()).isEqualTo("nodes/metrics");
              assertThat(rule.path("verbs")).extracting(JsonNode::asString).containsExactly("get");
            });
  }

  @Test
  void theScrapeSendsTheApisTokenInTokenModeAndIsRefusedWithoutAuth() {
    var chart =
        Chart.render(
            Map.of(
                "serviceMonitor.enabled", "true",
                "auth.mode", "token",
                "auth.tokenSecret.name", "migd-api",
                "auth.tokenSecret.key", "api-token"));
    var credentials = scrapeCredentials(chart);
    assertThat(credentials.path("name").asString()).isEqualTo("migd-api");
    assertThat(credentials.path("key").asString()).isEqualTo("api-token");
    assertThat(chart.ofKind("Secret")).as("the chart makes no token of its own").isEmpty();

    assertThatThrownBy(
            () ->
                Chart.render(
                    Map.of(
                        "serviceMonitor.enabled",
                        "true",
                        "auth.mode",
                        "none",
                        "server.address",
                        "127.0.0.1")))
        .hasMessageContaining("serviceMonitor.enabled needs auth.mode kubernetes or token");
  }

  @Test
  void theImageIsTheOneTheWorkflowBuildsForBothArchitecturesWithoutPushing() throws IOException {
    String workflow = Files.readString(Path.of("..", ".github", "workflows", "image.yaml"));
    JsonNode jobs = Chart.yaml(workflow).path("jobs");

    assertThat(CHART.container().path("image").asString())
        .isEqualTo(Chart.yaml(workflow).path("env").path("IMAGE").asString() + ":0.1.0");
    assertThat(workflow)
        .contains("platforms: linux/amd64,linux/arm64", "helm package helm/migd", "-XX:AOTMode=on")
        .doesNotContain("push: true");
    assertThat(jobs.path("image").path("strategy").path("matrix").path("platform"))
        .extracting(JsonNode::asString)
        .containsExactly("linux/amd64", "linux/arm64");
  }

  /** The Secret key the ServiceMonitor's scrape sends as its bearer token. */
  private static JsonNode scrapeCredentials(Chart.Manifests chart) {
    return chart
        .one("ServiceMonitor")
        .path("spec")
        .path("endpoints")
        .get(0)
        .path("authorization")
        .path("credentials");
  }

  /** Whether a node with these labels runs the DaemonSet's pod: its nodeSelector and affinity. */
  static boolean runsOn(JsonNode daemonSet, Map<String, String> labels) {
    var pod = Chart.Manifests.podSpec(daemonSet);
    for (var selector : pod.path("nodeSelector").properties()) {
      if (!selector.getValue().asString().equals(labels.get(selector.getKey()))) {
        return false;
      }
    }
    var terms =
        pod.path("affinity")
            .path("nodeAffinity")
            .path("requiredDuringSchedulingIgnoredDuringExecution")
            .path("nodeSelectorTerms");
    if (terms.isMissingNode()) {
      return true;
    }
    for (var term : terms) {
      boolean all = true;
      for (var expression : term.path("matchExpressions")) {
        String key = expression.path("key").asString();
        var values = new ArrayList<String>();
        expression.path("values").forEach(v -> values.add(v.asString()));
        all &=
            switch (expression.path("operator").asString()) {
              case "In" -> labels.containsKey(key) && values.contains(labels.get(key));
              case "NotIn" -> !labels.containsKey(key) || !values.contains(labels.get(key));
              case "Exists" -> labels.containsKey(key);
              case "DoesNotExist" -> !labels.containsKey(key);
              default -> throw new AssertionError("operator " + expression);
            };
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, JsonNode> volumes(JsonNode daemonSet) {
    var byName = new LinkedHashMap<String, JsonNode>();
    Chart.Manifests.podSpec(daemonSet)
        .path("volumes")
        .forEach(v -> byName.put(v.path("name").asString(), v));
    return byName;
  }

  private static Map<String, JsonNode> mounts(JsonNode daemonSet) {
    var byName = new LinkedHashMap<String, JsonNode>();
    Chart.Manifests.container(daemonSet)
        .path("volumeMounts")
        .forEach(m -> byName.put(m.path("name").asString(), m));
    return byName;
  }

  /** Host path to the path it is mounted at in the migd container. */
  private static Map<String, String> hostPathsMounted(JsonNode daemonSet) {
    var mounts = mounts(daemonSet);
    var result = new LinkedHashMap<String, String>();
    volumes(daemonSet)
        .forEach(
            (name, volume) -> {
              // the driver root is the one host path at a path of its own (/driver-root)
              if (volume.has("hostPath")
                  && mounts.containsKey(name)
                  && !name.equals("driver-root")) {
                result.put(
                    volume.path("hostPath").path("path").asString(),
                    mounts.get(name).path("mountPath").asString());
              }
            });
    return result;
  }
}
