package io.migd.profiles;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads a config file's YAML text into a tree, noting the line of every key and list element, and
 * refuses what the tree would hide: duplicate keys, YAML aliases and several documents.
 */
final class ConfigYamlReader {
  private static final YAMLMapper MAPPER =
      YAMLMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private ConfigYamlReader() {}

  /**
   * Reads the tree, and into {@code lines} the line of every key and list element by its path (the
   * keys and list indexes from the root), so errors found in the tree can name their line.
   */
  static JsonNode read(String yaml, ConfigPlace at, Map<List<String>, Integer> lines) {
    try {
      try (var scan = (YAMLParser) MAPPER.createParser(yaml)) {
        var path = new ArrayList<String>();
        // per open mapping or list: whether it is a list, and the index of its current element
        var lists = new ArrayDeque<int[]>();
        JsonToken token;
        while ((token = scan.nextToken()) != null) {
          if (scan.isCurrentAlias()) {
            throw at.fail(
                "YAML aliases (*name) are not supported (line "
                    + scan.currentTokenLocation().getLineNr()
                    + "); write the value out");
          }
          int line = scan.currentTokenLocation().getLineNr();
          int[] open = lists.peek();
          if (token == JsonToken.PROPERTY_NAME) {
            path.set(path.size() - 1, scan.currentName());
            lines.putIfAbsent(List.copyOf(path), line);
            continue;
          }
          if (open != null && open[0] == 1 && !token.isStructEnd()) {
            path.set(path.size() - 1, Integer.toString(++open[1]));
            lines.putIfAbsent(List.copyOf(path), line);
          }
          if (token.isStructStart()) {
            lists.push(new int[] {token == JsonToken.START_ARRAY ? 1 : 0, -1});
            path.add("");
          } else if (token.isStructEnd()) {
            lists.pop();
            path.removeLast();
          }
        }
      }
      try (var parser = MAPPER.createParser(yaml)) {
        var root = MAPPER.readTree(parser);
        if (parser.nextToken() != null) {
          throw at.fail("the file holds more than one YAML document; put all configs in one");
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
          throw at.fail("the file is empty; expected version: v1 and mig-configs");
        }
        return root;
      }
    } catch (JacksonException e) {
      var reason =
          e.getOriginalMessage().strip().replace("Duplicate Object property", "duplicate key");
      var location = e.getLocation();
      if (location != null && !reason.contains(" line ")) {
        reason += " (line " + location.getLineNr() + ")";
      }
      throw new ConfigFileException(at.prefix() + "not valid YAML: " + reason, e);
    }
  }
}
