package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the chart renders with values other than its own, and the values it refuses. */
class ChartValuesTest {
  private static final Chart.Manifests CUSTOM = Chart.render("custom");

  @Test
  void customValuesReachTheDaemonSet() {
    var pod = CUSTOM.podSpec();
    var container = CUSTOM.container();

    assertThat(container.path("image").asString()).isEqualTo("registry.example.com/gpu/migd:1.2.3");
    assertThat(container.path("imagePullPolicy").asString()).isEqualTo("Always");
    assertThat(pod.path("runtimeClassName").asString()).isEqualTo("nvidia");
    assertThat(pod.path("nodeSelector").properties()).hasSize(1);
    assertThat(pod.path("nodeSelector").path("gpu-pool").asString()).isEqualTo("a100");
    assertThat(pod.path("tolerations")).hasSize(1);
    assertThat(pod.path("tolerations").get(0).path("effect").asString()).isEqualTo("NoExecute");
    assertThat(container.path("resources").path("limits").path("cpu").asString()).isEqualTo("1");
    assertThat(container.path("resources").path("requests").path("memory").asString())
        .isEqualTo("200Mi");
    assertThat(container.path("ports").get(0).path("containerPort").asInt()).isEqualTo(9090);
  }

  @Test
  void customValuesBecomeMigdsEnvironment() {
    assertThat(CUSTOM.env())
        .contains(
            entry("MIGD_CONFIG", "all-balanced"),
            entry("MIGD_MIGSTRATEGY", "single"),
            entry("MIGD_REBOOT_ENABLED", "true"),
            entry("MIGD_REBOOT_COMMAND", "nsenter,-t,1,-m,--,shutdown,-r,now"),
            entry("MIGD_AUTH_MODE", "token"),
            entry("MIGD_AUTH_ANONYMOUSREAD", "true"),
            entry("MIGD_AUTH_TOKENFILE", "/var/run/secrets/migd/api-token"),
            entry("SERVER_ADDRESS", "fieldRef:status.podIP"),
            entry("SERVER_PORT", "9090"),
            entry(
                "JAVA_TOOL_OPTIONS",
                "-XX:+UseSerialGC -Xmx96m -XX:AOTCache=/opt/migd/migd-device-plugin.aot"),
            entry("MALLOC_ARENA_MAX", "4"),
            entry("SPRINGDOC_API_DOCS_ENABLED", "true"),
            entry("SPRINGDOC_SWAGGER_UI_ENABLED", "true"),
            entry("MIGD_KUBELET_ALLOCATIONGRACE", "2m"));
  }

  @Test
  void tokenModeMountsTheSecretAndDropsTheReviewRules() {
    var secret =
        CUSTOM.podSpec().path("volumes").valueStream().filter(v -> v.has("secret")).toList();

    assertThat(secret).hasSize(1);
    assertThat(secret.getFirst().path("secret").path("secretName").asString())
        .isEqualTo("migd-api-token");
    assertThat(ChartDefaultsTest.rules(CUSTOM))
        .containsExactly("/nodes: get,list,watch,patch", "/events: create,patch", "/pods: list");
  }

  @Test
  void hostPathsFollowTheValuesAndMigdIsToldThem() {
    var hostPaths =
        CUSTOM
            .podSpec()
            .path("volumes")
            .valueStream()
            .filter(v -> v.has("hostPath"))
            .map(v -> v.path("name").asString() + "=" + v.path("hostPath").path("path").asString())
            .toList();

    assertThat(hostPaths)
        .contains(
            "device-plugins=/var/lib/k0s/kubelet/device-plugins",
            "pod-resources=/var/lib/k0s/kubelet/pod-resources");
    assertThat(
            CUSTOM
                .container()
                .path("volumeMounts")
                .valueStream()
                .map(m -> m.path("mountPath").asString()))
        .contains("/var/lib/k0s/kubelet/device-plugins", "/var/lib/k0s/kubelet/pod-resources");
    assertThat(CUSTOM.env())
        .containsEntry("MIGD_KUBELET_DEVICEPLUGINDIR", "/var/lib/k0s/kubelet/device-plugins")
        .containsEntry(
            "MIGD_KUBELET_PODRESOURCESSOCKET", "/var/lib/k0s/kubelet/pod-resources/kubelet.sock");
  }

  @Test
  void aConfigFileInTheValuesReplacesTheShippedOne() {
    var file = CUSTOM.one("ConfigMap").path("data").path("config.yaml").asString();

    assertThat(Chart.yaml(file).path("mig-configs").properties())
        .singleElement()
        .satisfies(e -> assertThat(e.getKey()).isEqualTo("half"));
    assertThat(
            CUSTOM
                .one("DaemonSet")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("checksum/config")
                .asString())
        .isNotEqualTo(
            Chart.render()
                .one("DaemonSet")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("checksum/config")
                .asString());
  }

  @Test
  void monitoringRendersAServiceMonitorOnThePrometheusEndpointAndTheAlertRules()
      throws IOException {
    var monitor = CUSTOM.one("ServiceMonitor");
    var endpoint = monitor.path("spec").path("endpoints").get(0);
    var rule = CUSTOM.one("PrometheusRule");

    assertThat(monitor.path("metadata").path("labels").path("release").asString())
        .isEqualTo("kube-prometheus-stack");
    assertThat(endpoint.path("path").asString()).isEqualTo("/actuator/prometheus");
    assertThat(endpoint.path("port").asString()).isEqualTo("http");
    assertThat(endpoint.path("relabelings").get(0).path("targetLabel").asString())
        .isEqualTo("node");
    assertThat(monitor.path("spec").path("selector").path("matchLabels"))
        .isEqualTo(CUSTOM.one("Service").path("spec").path("selector"));
    assertThat(rule.path("metadata").path("labels").path("release").asString())
        .isEqualTo("kube-prometheus-stack");
    assertThat(rule.path("spec"))
        .isEqualTo(Chart.yaml(Files.readString(Chart.DIR.resolve("files/alerts.yaml"))));
    assertThat(
            rule.path("spec")
                .path("groups")
                .get(0)
                .path("rules")
                .valueStream()
                .map(r -> r.path("alert").asString()))
        .containsExactly(
            "MigdLayoutOutOfSync",
            "MigdReconcileFailed",
            "MigdDevicesUnhealthy",
            "MigdSharedDeviceOverlap");
  }

  @Test
  void aMisspeltTopLevelKeyFailsNamingIt() {
    assertThatThrownBy(() -> Chart.render("typo"))
        .hasMessageContaining("additional properties 'imagee' not allowed");
  }

  @Test
  void aMisspeltNestedKeyFailsNamingIt() {
    assertThatThrownBy(() -> Chart.render("typo-nested"))
        .hasMessageContaining("at '/migd/reboot': additional properties 'enable' not allowed");
  }

  @Test
  void aValueOfTheWrongKindFailsNamingTheField() {
    assertThatThrownBy(() -> Chart.render(Map.of("migd.migStrategy", "balanced")))
        .hasMessageContaining("at '/migd/migStrategy': value must be one of");
    assertThatThrownBy(() -> Chart.render(Map.of("migd.reconcile.resync", "soon")))
        .hasMessageContaining("resync");
  }

  @Test
  void authNoneIsRefusedOffLoopbackAndAllowedOnIt() {
    assertThatThrownBy(() -> Chart.render(Map.of("auth.mode", "none")))
        .hasMessageContaining("auth.mode none")
        .hasMessageContaining("server.address");

    var loopback = Chart.render(Map.of("auth.mode", "none", "server.address", "127.0.0.1"));
    assertThat(loopback.env()).contains(entry("MIGD_AUTH_MODE", "none"));
    assertThat(ChartDefaultsTest.rules(loopback))
        .containsExactly("/nodes: get,list,watch,patch", "/events: create,patch", "/pods: list");
  }

  @Test
  void tokenModeWithoutASecretIsRefused() {
    assertThatThrownBy(() -> Chart.render(Map.of("auth.mode", "token")))
        .hasMessageContaining("auth.tokenSecret.name");
  }
}
