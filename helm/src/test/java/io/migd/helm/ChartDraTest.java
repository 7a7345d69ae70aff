package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A node group in kubelet mode dra: migd as the nodes' DRA driver, and what the cluster needs. */
class ChartDraTest {
  private static final String KUBERNETES = "1.36.0";
  private static final Map<String, Object> DRA = Map.of("nodeGroups[0].kubelet.mode", "dra");
  private static final Chart.Manifests CHART = Chart.render(DRA, KUBERNETES);

  @Test
  void tellsMigdToBeTheDraDriverWithCdi() {
    assertThat(CHART.env())
        .contains(
            entry("MIGD_KUBELET_MODE", "dra"),
            entry("MIGD_DRA_DRIVERNAME", "gpu.nvidia.com"),
            entry("MIGD_DRA_PARTITIONABLE", "false"),
            entry("MIGD_DRA_SHARES", "false"),
            entry("MIGD_DRA_REGISTRYDIR", "/var/lib/kubelet/plugins_registry"),
            entry("MIGD_DRA_PLUGINDIR", "/var/lib/kubelet/plugins/gpu.nvidia.com"),
            entry("MIGD_CDI_ENABLED", "true"),
            entry("NODE_NAME", "fieldRef:spec.nodeName"));
  }

  @Test
  void mountsThePluginDirectoriesAtTheirHostPathsAndNotTheDevicePlugins() {
    assertThat(hostPaths(CHART.one("DaemonSet")))
        .containsExactly(
            entry("plugins-registry", "/var/lib/kubelet/plugins_registry"),
            entry("dra-plugin", "/var/lib/kubelet/plugins/gpu.nvidia.com"),
            entry("pod-resources", "/var/lib/kubelet/pod-resources"),
            entry("state", "/var/lib/migd"),
            entry("driver-root", "/"),
            entry("cdi-hook", "/usr/bin/nvidia-cdi-hook"),
            entry("cdi", "/var/run/cdi"),
            entry("mps-root", "/run/nvidia/mps"));
    assertThat(mounts(CHART.one("DaemonSet")))
        .contains(
            entry("plugins-registry", "/var/lib/kubelet/plugins_registry"),
            entry("dra-plugin", "/var/lib/kubelet/plugins/gpu.nvidia.com"),
            entry("cdi", "/var/run/cdi"))
        .doesNotContainKey("device-plugins");
  }

  @Test
  void anotherKubeletRootAndDriverMoveTheSocketsAndMigdIsToldWhere() {
    var chart =
        Chart.render(
            Map.of(
                "nodeGroups[0].kubelet.mode", "dra",
                "dra.driverName", "migd.example.com",
                "dra.partitionable", "true",
                "hostPaths.pluginsRegistry", "/var/lib/k0s/kubelet/plugins_registry",
                "hostPaths.kubeletPlugins", "/var/lib/k0s/kubelet/plugins"),
            "1.35.0");

    assertThat(chart.env())
        .contains(
            entry("MIGD_DRA_DRIVERNAME", "migd.example.com"),
            entry("MIGD_DRA_PARTITIONABLE", "true"),
            entry("MIGD_DRA_REGISTRYDIR", "/var/lib/k0s/kubelet/plugins_registry"),
            entry("MIGD_DRA_PLUGINDIR", "/var/lib/k0s/kubelet/plugins/migd.example.com"));
    assertThat(mounts(chart.one("DaemonSet")))
        .contains(
            entry("plugins-registry", "/var/lib/k0s/kubelet/plugins_registry"),
            entry("dra-plugin", "/var/lib/k0s/kubelet/plugins/migd.example.com"));
    assertThat(hostPaths(chart.one("DaemonSet")))
        .contains(entry("dra-plugin", "/var/lib/k0s/kubelet/plugins/migd.example.com"));
  }

  @Test
  void rbacAddsResourceSlicesClaimsAndTheirPods() {
    assertThat(ChartDefaultsTest.rules(CHART))
        .containsExactly(
            "/nodes: get,list,watch,patch",
            "/events: create,patch",
            "/pods: list",
            "resource.k8s.io/resourceslices: create,update,delete,list,watch,get",
            "resource.k8s.io/resourceclaims: get,list",
            "/pods: get",
            "authentication.k8s.io/tokenreviews: create",
            "authorization.k8s.io/subjectaccessreviews: create",
            "/nodes/metrics: get");
  }

  @Test
  void anAdmissionPolicyLimitsTheAccountsSliceWritesToItsOwnNode() {
    var policy = CHART.named("ValidatingAdmissionPolicy", "migd-resourceslices").path("spec");
    var binding =
        CHART.named("ValidatingAdmissionPolicyBinding", "migd-resourceslices").path("spec");
    var account = CHART.one("ServiceAccount").path("metadata").path("name").asString();

    assertThat(binding.path("policyName").asString()).isEqualTo("migd-resourceslices");
    assertThat(binding.path("validationActions").get(0).asString()).isEqualTo("Deny");
    assertThat(policy.path("failurePolicy").asString()).isEqualTo("Fail");
    var rule = policy.path("matchConstraints").path("resourceRules").get(0);
    assertThat(strings(rule.path("resources"))).containsExactly("resourceslices");
    assertThat(strings(rule.path("operations"))).containsExactly("CREATE", "UPDATE", "DELETE");
    assertThat(policy.path("matchConditions").get(0).path("expression").asString())
        .isEqualTo(
            "request.userInfo.username == \"system:serviceaccount:"
                + Chart.NAMESPACE
                + ":"
                + account
                + "\"");
    assertThat(policy.path("variables").get(0).path("expression").asString())
        .isEqualTo(
            "'authentication.kubernetes.io/node-name' in request.userInfo.extra ?"
                + " request.userInfo.extra['authentication.kubernetes.io/node-name'][0] : ''");
    assertThat(policy.path("variables").get(1).path("expression").asString())
        .isEqualTo(
            "(request.operation == 'DELETE' ? oldObject : object).spec.?nodeName.orValue('')");
    assertThat(policy.path("validations").valueStream().map(v -> v.path("expression").asString()))
        .containsExactly(
            "variables.userNodeName != ''", "variables.objectNodeName == variables.userNodeName");
  }

  @Test
  void restrictSlicesFalseLeavesThePolicyOut() {
    var chart =
        Chart.render(
            Map.of("nodeGroups[0].kubelet.mode", "dra", "dra.restrictSlices", "false"), KUBERNETES);

    assertThat(chart.names("ValidatingAdmissionPolicy")).containsExactly("migd-nodes");
    assertThat(chart.names("ValidatingAdmissionPolicyBinding")).containsExactly("migd-nodes");
  }

  @Test
  void deviceClassesSelectTheDriversGpusAndMigDevicesByType() {
    var chart = Chart.render(withDra("dra.deviceClasses.create", "true"), KUBERNETES);

    assertThat(selectors(chart))
        .containsExactly(
            entry(
                "gpu.nvidia.com",
                "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"),
            entry(
                "mig.nvidia.com",
                "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'"));
    assertThat(chart.ofKind("DeviceClass"))
        .allSatisfy(
            c -> assertThat(c.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1"))
        .allSatisfy(c -> assertThat(c.path("spec").has("extendedResourceName")).isFalse());
  }

  @Test
  void sharesTellMigdAndAddTheClassThatSelectsTheTwins() {
    assertThat(CHART.names("DeviceClass")).doesNotContain("share.migd.io");
    assertThat(CHART.env()).doesNotContainKey("MIGD_DRA_SHARES_NAMESPACES");

    var chart =
        Chart.render(
            withDra(
                "dra.shares", "true", "dra.sharesNamespaces", "single", "dra.driverName", "x.io"),
            KUBERNETES);

    assertThat(chart.env())
        .contains(entry("MIGD_DRA_SHARES", "true"), entry("MIGD_DRA_SHARES_NAMESPACES", "single"));
    assertThat(chart.names("DeviceClass")).containsExactly("share.migd.io");
    assertThat(selectors(chart))
        .containsExactly(
            entry(
                "share.migd.io",
                "device.driver == 'x.io' && device.allowMultipleAllocations == true"));
  }

  @Test
  void sharesNeedADraGroupAndANamespacesRuleMigdKnows() {
    assertThatThrownBy(() -> Chart.render(Map.of("dra.shares", "true"), KUBERNETES))
        .hasMessageContaining("dra.shares needs a node group in kubelet.mode dra");
    assertThatThrownBy(() -> Chart.render(withDra("dra.sharesNamespaces", "one"), KUBERNETES))
        .hasMessageContaining("sharesNamespaces");
  }

  @Test
  void extendedResourcesGiveEveryCatalogueProfileAClassUnderTheDevicePluginsName()
      throws IOException {
    var chart =
        Chart.render(
            withDra("dra.deviceClasses.create", "true", "dra.extendedResources", "true"),
            KUBERNETES);
    var profiles = catalogueProfiles();

    assertThat(profiles).contains("1g.10gb", "1g.10gb+me", "7g.80gb");
    var gpu = chart.named("DeviceClass", "gpu-extended.gpu.nvidia.com").path("spec");
    assertThat(gpu.path("extendedResourceName").asString()).isEqualTo("nvidia.com/gpu");
    assertThat(selectors(chart))
        .containsEntry("gpu-extended.gpu.nvidia.com", selectors(chart).get("gpu.nvidia.com"));
    var extended =
        chart.ofKind("DeviceClass").stream()
            .filter(c -> c.path("metadata").path("name").asString().startsWith("mig-"))
            .toList();
    assertThat(extended).hasSize(profiles.size());
    for (var profile : profiles) {
      var resource = profile.replace('+', '.');
      var spec = chart.named("DeviceClass", "mig-" + resource + ".gpu.nvidia.com").path("spec");
      assertThat(spec.path("extendedResourceName").asString())
          .isEqualTo("nvidia.com/mig-" + resource);
      assertThat(spec.path("selectors").get(0).path("cel").path("expression").asString())
          .isEqualTo(
              "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type =="
                  + " 'mig' && device.attributes['gpu.nvidia.com'].profile == '"
                  + profile
                  + "'");
    }
  }

  @Test
  void extendedResourceProfilesCanBeNarrowed() {
    var chart =
        Chart.render(
            withDra(
                "dra.deviceClasses.create", "true",
                "dra.extendedResources", "true",
                "dra.extendedResourceProfiles[0]", "1g.10gb",
                "dra.extendedResourceProfiles[1]", "3g.40gb"),
            KUBERNETES);

    assertThat(chart.names("DeviceClass"))
        .containsExactly(
            "gpu.nvidia.com",
            "mig.nvidia.com",
            "gpu-extended.gpu.nvidia.com",
            "mig-1g.10gb.gpu.nvidia.com",
            "mig-3g.40gb.gpu.nvidia.com");
  }

  @Test
  void draIsRefusedBeforeKubernetes134() {
    assertThatThrownBy(() -> Chart.render(DRA, "1.33.4"))
        .hasMessageContaining("kubelet.mode dra, which needs Kubernetes 1.34 or later")
        .hasMessageContaining("v1.33.4");
    assertThat(Chart.render(DRA, "1.34.0").one("DaemonSet")).isNotNull();
  }

  @Test
  void aSurgeInDraModeIsRefused() {
    assertThatThrownBy(
            () -> Chart.render(withDra("updateStrategy.rollingUpdate.maxSurge", "1"), KUBERNETES))
        .hasMessageContaining("maxSurge 0");
  }

  @Test
  void deviceClassesNeedADraGroupAndExtendedResourcesNeedDeviceClasses() {
    assertThatThrownBy(() -> Chart.render(Map.of("dra.deviceClasses.create", "true"), KUBERNETES))
        .hasMessageContaining("dra.deviceClasses.create needs a node group in kubelet.mode dra");
    assertThatThrownBy(() -> Chart.render(withDra("dra.extendedResources", "true"), KUBERNETES))
        .hasMessageContaining("dra.extendedResources needs dra.deviceClasses.create");
  }

  @Test
  void theDefaultExtendedResourceProfilesAreTheCataloguesProfiles() throws IOException {
    var values = Chart.yaml(Files.readString(Chart.DIR.resolve("values.yaml")));
    var listed = strings(values.path("dra").path("extendedResourceProfiles"));
    assertThat(listed).containsExactlyInAnyOrderElementsOf(catalogueProfiles());
  }

  /**
   * The GPU-instance profile names of migd's GPU model catalogue: the {@code gi} records of {@code
   * profiles/src/main/resources/io/migd/profiles/gpu-models.tsv} ({@code gi|MODEL|PROFILE|...}).
   */
  private static List<String> catalogueProfiles() throws IOException {
    var catalogue =
        Path.of("..", "profiles", "src", "main", "resources", "io", "migd", "profiles")
            .resolve("gpu-models.tsv");
    return Files.readAllLines(catalogue).stream()
        .filter(line -> line.startsWith("gi|"))
        .map(line -> line.split("\\|")[2])
        .distinct()
        .toList();
  }

  private static Map<String, Object> withDra(String... keysAndValues) {
    var values = new LinkedHashMap<String, Object>(DRA);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      values.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return values;
  }

  private static Map<String, String> selectors(Chart.Manifests chart) {
    var selectors = new LinkedHashMap<String, String>();
    for (var c : chart.ofKind("DeviceClass")) {
      selectors.put(
          c.path("metadata").path("name").asString(),
          c.path("spec").path("selectors").get(0).path("cel").path("expression").asString());
    }
    return selectors;
  }

  private static Map<String, String> hostPaths(JsonNode daemonSet) {
    var hostPaths = new LinkedHashMap<String, String>();
    for (var volume : Chart.Manifests.podSpec(daemonSet).path("volumes")) {
      if (volume.has("hostPath")) {
        hostPaths.put(
            volume.path("name").asString(), volume.path("hostPath").path("path").asString());
      }
    }
    return hostPaths;
  }

  private static Map<String, String> mounts(JsonNode daemonSet) {
    var mounts = new LinkedHashMap<String, String>();
    for (var mount : Chart.Manifests.container(daemonSet).path("volumeMounts")) {
      mounts.put(mount.path("name").asString(), mount.path("mountPath").asString());
    }
    return mounts;
  }

  private static List<String> strings(JsonNode array) {
    return array.valueStream().map(JsonNode::asString).toList();
  }
}
