package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CatalogCheckTest {

  record Case(String why, String itemLines, String problem) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Case> cases() {
    var a100 = "device-filter: [\"0x20B010DE\"]\n      ";
    return Stream.of(
        new Case("fits", a100 + "mig-devices: {\"1g.10gb\": 4, \"3g.20gb\": 1}", ""),
        new Case(
            "too many",
            a100 + "mig-devices: {\"1g.10gb\": 5}",
            "config \"c\", item 0: A100-SXM4-40GB fits at most 4 × 1g.10gb, not 5"),
        new Case(
            "profile of another model",
            a100 + "mig-devices: {\"1g.10gb+me\": 1}",
            "config \"c\", item 0: A100-SXM4-40GB has no profile 1g.10gb+me"),
        new Case("compute instances fit", a100 + "mig-devices: {\"1c.3g.20gb\": 6}", ""),
        new Case(
            "too many compute instances",
            a100 + "mig-devices: {\"1c.3g.20gb\": 7}",
            "config \"c\", item 0: A100-SXM4-40GB fits at most 6 × 1c.3g.20gb, not 7"),
        new Case(
            "no such compute instance",
            a100 + "mig-devices: {\"3c.4g.20gb\": 1}",
            "config \"c\", item 0: A100-SXM4-40GB 4g.20gb has no 3-slice compute instance"),
        new Case("without filter one model suffices", "mig-devices: {\"1g.24gb\": 4}", ""),
        new Case(
            "without filter no model",
            "mig-devices: {\"1g.99gb\": 1}",
            "config \"c\", item 0: no MIG model of the catalogue suits it (A30 has no profile"
                + " 1g.99gb; A100-SXM4-40GB has no profile 1g.99gb;"),
        new Case(
            "without filter too many for every model",
            "mig-devices: {\"1g.10gb\": 8}",
            "config \"c\", item 0: no MIG model of the catalogue suits it (A30 has no profile"
                + " 1g.10gb; A100-SXM4-40GB fits at most 4 × 1g.10gb, not 8;"),
        new Case(
            "unknown device is left to NVML",
            "device-filter: [\"0x20F110DE\"]\n      mig-devices: {\"1g.99gb\": 1}",
            ""));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsProfilesTheSelectedModelsLack(Case c) {
    var file =
        MigConfigParser.parse(
            "version: v1\nmig-configs:\n  c:\n    - devices: all\n      mig-enabled: true\n      "
                + c.itemLines()
                + "\n");

    var problems = CatalogCheck.problems(file, GpuModelCatalog.builtIn());

    if (c.problem().isEmpty()) {
      assertThat(problems).isEmpty();
    } else {
      assertThat(problems).singleElement().asString().startsWith(c.problem());
    }
  }
}
