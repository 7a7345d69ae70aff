package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The dashboards and alert rules use only metric names migd exports, the dashboards are importable
 * (current schema, the data source and the node and GPU variables), and the contract lists every
 * metric.
 */
class DashboardsTest {
  private static final Pattern METRIC_NAME = Pattern.compile("\\bmigd_[a-z_]+");

  static List<Dashboards.Query> queriesAndAlerts() {
    var all = new java.util.ArrayList<>(Dashboards.queries());
    all.addAll(Dashboards.alerts());
    return all;
  }

  static List<Path> dashboards() {
    return Dashboards.files();
  }

  @ParameterizedTest
  @MethodSource("queriesAndAlerts")
  void usesOnlyExportedMetrics(Dashboards.Query query) {
    Set<String> exported = new HashSet<>(exportedSeries());
    if (query.dra()) {
      exported.addAll(Dashboards.DRA_SERIES);
    }
    var names = METRIC_NAME.matcher(query.expr()).results().map(r -> r.group()).toList();
    assertThat(names).as(query.expr()).isNotEmpty();
    assertThat(exported).as(query.expr()).containsAll(names);
  }

  @ParameterizedTest
  @MethodSource("dashboards")
  void isImportableWithTheNodeAndGpuVariables(Path file) {
    JsonNode dashboard = Dashboards.read(file);
    assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
    assertThat(dashboard.path("uid").asString()).startsWith("migd-");
    var variables = new HashSet<String>();
    dashboard
        .path("templating")
        .path("list")
        .forEach(v -> variables.add(v.path("name").asString()));
    assertThat(variables).contains("datasource", "node", "gpu");
    assertThat(dashboard.path("panels")).isNotEmpty();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asString().equals("row")) {
        continue;
      }
      assertThat(panel.path("datasource").path("uid").asString())
          .as(panel.path("title").asString())
          .isEqualTo("${datasource}");
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("expr").asString())
            .as(panel.path("title").asString())
            .contains("node=~\"$node\"");
      }
    }
  }

  @Test
  void readmeLinksEveryDashboard() throws Exception {
    String readme = Files.readString(Dashboards.GRAFANA.resolve("README.md"));
    for (Path file : Dashboards.files()) {
      assertThat(readme).contains("(" + file.getFileName() + ")");
    }
  }

  @Test
  void contractListsEveryMetric() throws Exception {
    String contract = Files.readString(Path.of("..", "docs", "contract.md"));
    for (Metric metric : Metric.values()) {
      assertThat(contract.contains("`" + metric.prometheusName() + "`"))
          .as("docs/contract.md lists %s", metric.prometheusName())
          .isTrue();
    }
  }

  /** Every series name a scrape can hold: histograms add their bucket, count, sum and max. */
  private static Set<String> exportedSeries() {
    return Arrays.stream(Metric.values())
        .flatMap(
            m ->
                m.type() == Metric.Type.HISTOGRAM
                    ? List.of("_bucket", "_count", "_sum", "_max").stream()
                        .map(suffix -> m.prometheusName() + suffix)
                    : java.util.stream.Stream.of(m.prometheusName()))
        .collect(Collectors.toSet());
  }
}
