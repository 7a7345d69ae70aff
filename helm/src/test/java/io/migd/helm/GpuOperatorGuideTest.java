package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The helm commands and values of docs/gpu-operator.md, read from the guide: migd's install renders
 * with the ConfigMap the guide copies and the operator's settings; the CDI values file turns CDI on
 * over the operator's driver root and the hook its toolkit installs; the operator's own upgrade
 * turns off exactly its device plugin and mig-manager, keeping every other value, and the rollback
 * turns them on again with the copied ConfigMap.
 */
class GpuOperatorGuideTest {
  private static final Pattern SET = Pattern.compile("--set (\\S+?)=(\\S+)");
  private static String guide;

  @BeforeAll
  static void readGuide() throws IOException {
    guide = Files.readString(Path.of("..", "docs", "gpu-operator.md"));
  }

  @Test
  void migdsInstallMountsTheCopiedConfigMapWithTheOperatorsSettings() {
    String install = command("helm install migd helm/migd -n gpu-operator");
    Map<String, Object> values = new LinkedHashMap<>(sets(install));
    String copied = match("create configmap (\\S+) --from-file").group(1);

    var chart = Chart.render(values);

    assertThat(values).containsEntry("migd.existingConfigMap.name", copied);
    JsonNode config =
        chart
            .podSpec()
            .path("volumes")
            .valueStream()
            .filter(v -> v.path("name").asString().equals("config"))
            .findFirst()
            .orElseThrow();
    assertThat(config.path("configMap").path("name").asString()).isEqualTo(copied);
    assertThat(chart.env())
        .contains(
            entry("MIGD_MIGSTRATEGY", "mixed"),
            entry("MIGD_NODE_CAPACITYLABELS", "false"),
            entry("MIGD_DEVICEPLUGINCONFIGDEFAULT", "any"));
  }

  @Test
  void theCdiValuesFileTurnsCdiOnOverTheOperatorsDriverRootAndHook() throws IOException {
    Matcher block = match("Save this as\\s+`(\\S+)`:\\s+```yaml\\n(.*?)```", Pattern.DOTALL);
    Path file = Files.createTempDirectory("guide").resolve(block.group(1));
    Files.writeString(file, block.group(2));
    assertThat(guide).contains("-f " + block.group(1));

    var chart = Chart.render(file, Map.of());

    assertThat(chart.env()).contains(entry("MIGD_CDI_ENABLED", "true"));
    String volumes = chart.podSpec().path("volumes").toString();
    // the operator's toolkit installs into <toolkit.installDir>/toolkit (gpu-operator
    // controllers/object_controls.go, NVIDIA_CDI_HOOK_PATH; nvidia-ctk-installer's toolkitSubDir)
    Matcher installDir = match("`toolkit.installDir` is `(\\S+)` by\\s+default");
    assertThat(installDir.group(1)).isEqualTo("/usr/local/nvidia");
    assertThat(volumes)
        .as("the driver container's root and the operator's hook, from the node")
        .contains("/run/nvidia/driver", installDir.group(1) + "/toolkit/nvidia-cdi-hook");
  }

  @Test
  void theOperatorsOwnValuesTurnItsComponentsOffAndOnKeepingTheRest() {
    String off = command("helm -n gpu-operator upgrade gpu-operator nvidia/gpu-operator");
    String copied = match("create configmap (\\S+) --from-file").group(1);

    assertThat(off).contains("--reuse-values");
    assertThat(sets(off))
        .containsExactly(
            entry("devicePlugin.enabled", "false"), entry("migManager.enabled", "false"));
    assertThat(guide).doesNotContain("kubectl patch clusterpolic");

    String on =
        command(
            "helm -n gpu-operator upgrade gpu-operator nvidia/gpu-operator",
            guide.indexOf("## Rolling back"));
    assertThat(on).contains("--reuse-values");
    assertThat(sets(on))
        .containsExactly(
            entry("devicePlugin.enabled", "true"),
            entry("migManager.enabled", "true"),
            entry("migManager.config.name", copied));
  }

  /** The command starting with {@code start} (from {@code from} on), its lines joined. */
  private static String command(String start, int from) {
    int at = guide.indexOf(start, from);
    assertThat(at).as("docs/gpu-operator.md has %s", start).isNotNegative();
    var text = new StringBuilder();
    for (String line : guide.substring(at).lines().toList()) {
      text.append(line.strip().replaceAll("\\\\$", "")).append(' ');
      if (!line.stripTrailing().endsWith("\\")) {
        break;
      }
    }
    return text.toString();
  }

  private static String command(String start) {
    return command(start, 0);
  }

  private static Map<String, String> sets(String command) {
    var sets = new LinkedHashMap<String, String>();
    SET.matcher(command).results().forEach(r -> sets.put(r.group(1), r.group(2)));
    return sets;
  }

  private static Matcher match(String regex) {
    return match(regex, 0);
  }

  private static Matcher match(String regex, int flags) {
    Matcher m = Pattern.compile(regex, flags).matcher(guide);
    assertThat(m.find()).as("docs/gpu-operator.md matches %s", regex).isTrue();
    return m;
  }
}
