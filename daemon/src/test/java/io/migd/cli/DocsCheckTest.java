package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.app.KnownProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;
import tools.jackson.databind.json.JsonMapper;

/**
 * The docs (README.md, docs/*.md, helm/README.md) name only what the code has, and the contract
 * names every property the code has; the check finds a false name of each kind.
 */
class DocsCheckTest {
  private static final Path ROOT = Path.of("..");
  private static final DocsCheck.Code CODE = code();

  @Test
  void everyNameTheDocsGiveExistsInTheCode() {
    assertThat(new DocsCheck(CODE).problems(DocsCheck.documents(ROOT))).isEmpty();
  }

  @Test
  void theContractDocumentsEveryProperty() throws IOException {
    String contract = Files.readString(ROOT.resolve("docs/contract.md"));

    assertThat(CODE.properties())
        .isNotEmpty()
        .allSatisfy(p -> assertThat(contract).as("docs/contract.md names " + p).contains("`" + p));
  }

  @Test
  void findsAPlantedFalseNameOfEachKind() {
    String planted =
        """
        Set `migd.pause.timeout` (a real one) and `migd.pause.timout`; watch `migd_gpu_info` and
        `migd_gpu_infos`; the label `nvidia.com/mig.config.state` and `nvidia.com/mig.config.status`;
        call `GET /api/v1/layout` and `GET /api/v1/layouts`; run `./migd apply --force --forse`.
        """;

    assertThat(new DocsCheck(CODE).problems(Map.of("planted.md", planted)))
        .containsExactly(
            "planted.md: REST path /api/v1/layouts",
            "planted.md: flag --forse",
            "planted.md: label nvidia.com/mig.config.status",
            "planted.md: metric migd_gpu_infos",
            "planted.md: property migd.pause.timout");
  }

  @Test
  void placeholdersAndGroupsOfRealNamesPass() {
    String names =
        """
        `migd.pause.*`, `migd.node`, `migd.existingConfigMap.name` (a chart value),
        `nvidia.com/mig-<profile>.count`, `nvidia.com/gpu.deploy.<operand>`,
        `migd_reconcile_duration_seconds_bucket`, `daemon/target/migd.jar`, `migd.io/state-reason`.
        """;

    assertThat(new DocsCheck(CODE).problems(Map.of("names.md", names))).isEmpty();
  }

  private static DocsCheck.Code code() {
    try {
      var flags = new HashSet<String>();
      collectFlags(MigdCommand.commandLine(), flags);
      Set<String> paths = new TreeSet<>();
      JsonMapper.shared()
          .readTree(Files.readString(ROOT.resolve("api/openapi.json")))
          .path("paths")
          .propertyNames()
          .forEach(paths::add);
      Map<String, Object> values =
          new Yaml().load(Files.readString(ROOT.resolve("helm/migd/values.yaml")));
      var chartValues = new TreeSet<String>();
      flatten("", values, chartValues);
      String production =
          DocsCheck.text(
              List.of(
                  ROOT.resolve("nvml/src/main"),
                  ROOT.resolve("profiles/src/main"),
                  ROOT.resolve("core/src/main"),
                  ROOT.resolve("kubelet/src/main"),
                  ROOT.resolve("node/src/main"),
                  ROOT.resolve("daemon/src/main"),
                  ROOT.resolve("helm/migd")),
              List.of(".java", ".yaml", ".tpl", ".json"));
      return new DocsCheck.Code(
          new TreeSet<>(KnownProperties.ofMigd().names()), chartValues, flags, paths, production);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void collectFlags(CommandLine command, Set<String> flags) {
    command.getCommandSpec().options().forEach(o -> flags.addAll(List.of(o.names())));
    command.getSubcommands().values().forEach(sub -> collectFlags(sub, flags));
  }

  @SuppressWarnings("unchecked")
  private static void flatten(String prefix, Map<String, Object> map, Set<String> into) {
    map.forEach(
        (key, value) -> {
          String path = prefix.isEmpty() ? key : prefix + "." + key;
          into.add(path);
          if (value instanceof Map<?, ?> nested) {
            flatten(path, (Map<String, Object>) nested, into);
          }
        });
  }
}
