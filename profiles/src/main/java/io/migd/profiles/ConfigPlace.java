package io.migd.profiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The place in a config file being read, which reads the mappings there strictly and makes errors
 * that name it and its line; {@code item} is -1 above item level. {@code lines} holds the line of
 * every key and list element by its path from the root.
 */
record ConfigPlace(String file, String config, int item, Map<List<String>, Integer> lines) {
  String prefix() {
    var text = new StringBuilder();
    if (file != null) {
      text.append(file).append(": ");
    }
    if (config != null) {
      text.append("config \"").append(config).append('"');
      text.append(item >= 0 ? ", item " + item + ": " : ": ");
    }
    return text.toString();
  }

  /** An error about the item, config or file itself, naming its line. */
  ConfigFileException fail(String problem) {
    return failAt(List.of(), problem);
  }

  /**
   * An error about the key at {@code keys} under this place, naming its line (the place's when the
   * key is not in the file).
   */
  ConfigFileException failAt(List<String> keys, String problem) {
    var base = new ArrayList<String>();
    if (config != null) {
      base.add("mig-configs");
      base.add(config);
      if (item >= 0) {
        base.add(Integer.toString(item));
      }
    }
    var path = new ArrayList<>(base);
    path.addAll(keys);
    Integer line = lines.get(path);
    if (line == null) {
      line = lines.get(base);
    }
    return new ConfigFileException(
        prefix() + problem + (line == null ? "" : " (line " + line + ")"), null);
  }

  /**
   * The keys and values of {@code node}, which must be a mapping ({@code what} is {@code
   * expected}).
   */
  Map<String, JsonNode> mapping(JsonNode node, String what, String expected) {
    if (!node.isObject()) {
      throw fail(what + " must be " + expected + ", got " + YamlText.describe(node));
    }
    var fields = new LinkedHashMap<String, JsonNode>();
    node.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
    return fields;
  }

  /** Refuses a key of {@code fields} (the mapping at {@code under} in this place) not known. */
  void checkKeys(Map<String, JsonNode> fields, Set<String> known, List<String> under) {
    for (var key : fields.keySet()) {
      if (!known.contains(key)) {
        var path = new ArrayList<>(under);
        path.add(key);
        throw failAt(path, "unknown key \"" + String.join(".", path) + "\"");
      }
    }
  }

  /** The value of {@code key} in {@code fields}; an error when it is missing. */
  JsonNode required(Map<String, JsonNode> fields, String key) {
    var value = fields.get(key);
    if (value == null) {
      throw fail("missing key \"" + key + "\"");
    }
    return value;
  }
}
