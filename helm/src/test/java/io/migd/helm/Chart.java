package io.migd.helm;

import com.marcnuri.helm.Helm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The chart in {@code helm/migd}, rendered as {@code helm template} does, for Kubernetes 1.33
 * unless a test names another version.
 */
final class Chart {
  static final Path DIR = Path.of("migd");
  static final String KUBERNETES = "1.33.0";
  static final String RELEASE = "migd";
  static final String NAMESPACE = "gpu-system";

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private Chart() {}

  /** The objects the chart renders with the chart's own values. */
  static Manifests render() {
    return render(t -> t);
  }

  /** The objects the chart renders with the values file {@code values/<name>.yaml}. */
  static Manifests render(String valuesFile) {
    return render(t -> t.withValuesFile(valuesPath(valuesFile)));
  }

  /** The objects the chart renders with these {@code --set} values. */
  static Manifests render(Map<String, Object> values) {
    return render(values, KUBERNETES);
  }

  /** The objects the chart renders with these {@code --set} values for this Kubernetes version. */
  static Manifests render(Map<String, Object> values, String kubernetes) {
    return render(
        t -> {
          values.forEach(t::set);
          return t.withKubeVersion(kubernetes);
        });
  }

  /**
   * The objects the chart renders with the values file {@code values/<name>.yaml} and these {@code
   * --set} values, for this Kubernetes version.
   */
  static Manifests render(String valuesFile, Map<String, Object> values, String kubernetes) {
    return render(
        t -> {
          values.forEach(t::set);
          return t.withValuesFile(valuesPath(valuesFile)).withKubeVersion(kubernetes);
        });
  }

  /**
   * The objects the chart renders with the values file {@code file} and these {@code --set} values.
   */
  static Manifests render(Path file, Map<String, Object> values) {
    return render(
        t -> {
          values.forEach(t::set);
          return t.withValuesFile(file).withKubeVersion(KUBERNETES);
        });
  }

  static Path valuesPath(String name) {
    return Path.of("src", "test", "resources", "values", name + ".yaml");
  }

  private static Manifests render(UnaryOperator<com.marcnuri.helm.TemplateCommand> options) {
    var command =
        new Helm(DIR)
            .template()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(KUBERNETES);
    return parse(options.apply(command).call());
  }

  static Manifests parse(String yaml) {
    var objects = new ArrayList<JsonNode>();
    try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
      while (docs.hasNextValue()) {
        var doc = docs.nextValue();
        if (doc != null && doc.isObject() && !doc.isEmpty()) {
          objects.add(doc);
        }
      }
    }
    return new Manifests(objects);
  }

  static JsonNode yaml(String text) {
    return YAML.readTree(text);
  }

  /** The rendered objects. */
  record Manifests(List<JsonNode> objects) {
    Manifests {
      objects = List.copyOf(objects);
    }

    /** The objects of this kind, the {@code -mps} DaemonSet left out (see {@link #mps()}). */
    List<JsonNode> ofKind(String kind) {
      return objects.stream()
          .filter(o -> o.path("kind").asString().equals(kind) && !isMps(o))
          .toList();
    }

    /** The {@code <release>-mps} DaemonSet, the MPS supervisor's. */
    JsonNode mps() {
      return objects.stream()
          .filter(Manifests::isMps)
          .findFirst()
          .orElseThrow(() -> new AssertionError("no -mps DaemonSet"));
    }

    private static boolean isMps(JsonNode o) {
      return o.path("kind").asString().equals("DaemonSet")
          && o.path("metadata")
              .path("labels")
              .path("app.kubernetes.io/component")
              .asString()
              .equals("mps");
    }

    JsonNode one(String kind) {
      var found = ofKind(kind);
      if (found.size() != 1) {
        throw new AssertionError("expected one " + kind + ", found " + found.size());
      }
      return found.getFirst();
    }

    List<String> kinds() {
      return objects.stream().map(o -> o.path("kind").asString()).sorted().toList();
    }

    /** The object of this kind and name. */
    JsonNode named(String kind, String name) {
      return ofKind(kind).stream()
          .filter(o -> o.path("metadata").path("name").asString().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + kind + " named " + name));
    }

    /** The names of the objects of this kind, in the order rendered. */
    List<String> names(String kind) {
      return ofKind(kind).stream().map(o -> o.path("metadata").path("name").asString()).toList();
    }

    JsonNode podSpec() {
      return podSpec(one("DaemonSet"));
    }

    JsonNode container() {
      return container(one("DaemonSet"));
    }

    /** The migd container's environment: name to value (valueFrom as its field path). */
    Map<String, String> env() {
      return env(one("DaemonSet"));
    }

    static JsonNode podSpec(JsonNode daemonSet) {
      return daemonSet.path("spec").path("template").path("spec");
    }

    static JsonNode container(JsonNode daemonSet) {
      return podSpec(daemonSet).path("containers").get(0);
    }

    /** A DaemonSet's migd container's environment: name to value (valueFrom as its field path). */
    static Map<String, String> env(JsonNode daemonSet) {
      var env = new LinkedHashMap<String, String>();
      for (var e : container(daemonSet).path("env")) {
        var value =
            e.has("value")
                ? e.path("value").asString()
                : "fieldRef:" + e.path("valueFrom").path("fieldRef").path("fieldPath").asString();
        env.put(e.path("name").asString(), value);
      }
      return env;
    }
  }
}
