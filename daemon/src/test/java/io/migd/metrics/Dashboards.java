package io.migd.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The PromQL of the repository: every dashboard query in grafana/ and every alert expression. */
final class Dashboards {
  static final Path GRAFANA = Path.of("..", "grafana");
  static final Path ALERTS = Path.of("..", "helm", "migd", "files", "alerts.yaml");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * The series of the DRA dashboard (DESIGN section 12) that a node exports only in kubelet mode
   * {@code dra}, by the names the design fixes, for as long as {@link Metric} does not list them.
   */
  static final Set<String> DRA_SERIES =
      Set.of(
          "migd_dra_prepare_duration_seconds_bucket",
          "migd_dra_prepare_duration_seconds_count",
          "migd_dra_prepare_duration_seconds_sum",
          "migd_dra_prepared_devices",
          "migd_dra_requests_total",
          "migd_dra_free_placements");

  /**
   * One query: where it is (file and panel), its expression, and whether it reads a node in kubelet
   * mode {@code dra} (its dashboard is tagged {@code dra}).
   */
  record Query(String where, String expr, boolean dra) {
    @Override
    public String toString() {
      return where;
    }
  }

  private Dashboards() {}

  /** The dashboard files. */
  static List<Path> files() {
    try (Stream<Path> files = Files.list(GRAFANA)) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A dashboard as JSON. */
  static JsonNode read(Path file) {
    return JSON.readTree(file.toFile());
  }

  /** Every panel target's expression and every query variable's query, of every dashboard. */
  static List<Query> queries() {
    var queries = new ArrayList<Query>();
    for (Path file : files()) {
      JsonNode dashboard = read(file);
      boolean dra = dashboard.path("tags").valueStream().anyMatch(t -> t.asString().equals("dra"));
      for (JsonNode panel : dashboard.path("panels")) {
        for (JsonNode target : panel.path("targets")) {
          queries.add(
              new Query(
                  file.getFileName()
                      + " / "
                      + panel.path("title").asString()
                      + " / "
                      + target.path("refId").asString(),
                  target.path("expr").asString(),
                  dra));
        }
      }
    }
    return queries;
  }

  /** The expression of every alert rule. */
  @SuppressWarnings("unchecked") // SnakeYAML gives untyped maps and lists
  static List<Query> alerts() {
    try {
      Map<String, Object> rules = new Yaml().load(Files.readString(ALERTS));
      var queries = new ArrayList<Query>();
      for (var group : (List<Map<String, Object>>) rules.get("groups")) {
        for (var rule : (List<Map<String, Object>>) group.get("rules")) {
          queries.add(new Query("alert " + rule.get("alert"), rule.get("expr").toString(), false));
        }
      }
      return queries;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The query Grafana sends for one node, all GPUs, and a one-minute rate interval. */
  static String substitute(String expr, String node) {
    return expr.replace("$__rate_interval", "1m")
        .replace("$__interval", "15s")
        .replace("$node", node)
        .replace("$gpu", ".*");
  }
}
