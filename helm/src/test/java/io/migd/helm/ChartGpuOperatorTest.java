package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A cluster moving from the GPU Operator keeps its ConfigMaps: the operator's mig-parted config and
 * its device-plugin configs reach migd as files it reads again when they change.
 */
class ChartGpuOperatorTest {
  private static final Chart.Manifests OPERATORS =
      Chart.render(
          Map.of(
              "migd.existingConfigMap.name", "default-mig-parted-config",
              "migd.devicePluginConfig.name", "time-slicing-config",
              "migd.devicePluginConfig.default", "any"));

  @Test
  void theOperatorsMigConfigMapIsMigdsConfigFileAndTheChartWritesNoneOfItsOwn() {
    JsonNode config = volume(OPERATORS, "config");

    assertThat(config.path("configMap").path("name").asString())
        .isEqualTo("default-mig-parted-config");
    assertThat(config.path("configMap").path("items").get(0).path("key").asString())
        .isEqualTo("config.yaml");
    assertThat(OPERATORS.ofKind("ConfigMap")).isEmpty();
    assertThat(OPERATORS.env()).contains(entry("MIGD_CONFIGFILE", "/etc/migd/config.yaml"));
    assertThat(mountPath(OPERATORS, "config")).isEqualTo("/etc/migd");
  }

  @Test
  void theDevicePluginConfigMapIsMountedWholeWithTheDefaultKey() {
    JsonNode configs = volume(OPERATORS, "device-plugin-config");

    assertThat(configs.path("configMap").path("name").asString()).isEqualTo("time-slicing-config");
    assertThat(configs.path("configMap").has("items")).as("every key, one file each").isFalse();
    assertThat(mountPath(OPERATORS, "device-plugin-config")).isEqualTo("/etc/migd-device-plugin");
    assertThat(OPERATORS.env())
        .contains(
            entry("MIGD_DEVICEPLUGINCONFIG", "/etc/migd-device-plugin"),
            entry("MIGD_DEVICEPLUGINCONFIGDEFAULT", "any"));
  }

  @Test
  void withoutThemTheChartMountsItsOwnConfigMapAndNoDevicePluginConfig() {
    var defaults = Chart.render();

    assertThat(volume(defaults, "config").path("configMap").path("name").asString())
        .isEqualTo(Chart.RELEASE);
    assertThat(defaults.ofKind("ConfigMap")).hasSize(1);
    assertThat(defaults.env()).doesNotContainKeys("MIGD_DEVICEPLUGINCONFIG");
    assertThat(defaults.podSpec().path("volumes").valueStream().map(v -> v.path("name").asString()))
        .doesNotContain("device-plugin-config");
  }

  private static JsonNode volume(Chart.Manifests manifests, String name) {
    return manifests
        .podSpec()
        .path("volumes")
        .valueStream()
        .filter(v -> v.path("name").asString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  private static String mountPath(Chart.Manifests manifests, String name) {
    return manifests
        .container()
        .path("volumeMounts")
        .valueStream()
        .filter(m -> m.path("name").asString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no mount " + name))
        .path("mountPath")
        .asString();
  }
}
