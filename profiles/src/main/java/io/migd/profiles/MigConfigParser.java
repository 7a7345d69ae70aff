package io.migd.profiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads mig-parted config files ({@code version: v1}) strictly, so that a typo fails loudly instead
 * of silently selecting nothing.
 *
 * <p>The YAML is read into a tree and walked here, so every error names its place: the file (when
 * known), the config, the item index, the key and the line, for example {@code config
 * "all-1g.10gb", item 0: unknown key "mig-device" (line 12)}: the line of the key when the error is
 * about one, else of the item, config or file it is in. Rejected: unknown keys at any level (by
 * name), a version other than {@code v1}, values of the wrong type ({@code mig-enabled: "yes"}),
 * duplicate keys, several YAML documents, YAML aliases, profile names that break NVIDIA's grammar,
 * and (as mig-parted does) {@code mig-enabled: true} without {@code mig-devices} ({@code {}} is
 * allowed) or with counts that are all zero. Profile names are not checked against GPU models here:
 * a well-formed name a GPU lacks is the planner's {@code Infeasible}, and {@link CatalogCheck}
 * checks a file against the catalogue. migd's {@code dynamic: true} needs {@code mig-enabled: true}
 * and takes none of {@code mig-devices}, {@code sharing}, {@code time-slicing} and {@code mps}.
 */
public final class MigConfigParser {
  private static final YAMLMapper MAPPER =
      YAMLMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private static final Set<String> FILE_KEYS = Set.of("version", "mig-configs");
  private static final Set<String> ITEM_KEYS =
      Set.of(
          "devices",
          "device-filter",
          "mig-enabled",
          "mig-devices",
          "time-slicing",
          "mps",
          "sharing",
          "dynamic");
  private static final Set<String> REPLICAS_KEYS = Set.of("replicas");
  private static final Set<String> SHARING_KEYS = Set.of("time-slicing", "mps");

  private MigConfigParser() {}

  /**
   * Reads a config file from disk; messages name the file by its file name.
   *
   * @param file the file
   * @return the parsed file
   * @throws IOException if the file cannot be read
   * @throws ConfigFileException if its content is not a valid v1 config file
   */
  public static MigConfigFile parse(Path file) throws IOException {
    var name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    return parse(Files.readString(file, StandardCharsets.UTF_8), name);
  }

  /**
   * Reads config file content whose origin has no name (a REST body, a string in a test).
   *
   * @param yaml the YAML text
   * @return the parsed file
   * @throws ConfigFileException if the content is not a valid v1 config file
   */
  public static MigConfigFile parse(String yaml) {
    return parse(yaml, null);
  }

  /**
   * Reads config file content; messages start with {@code fileName}.
   *
   * @param yaml the YAML text
   * @param fileName the name to put in messages, or null if there is none
   * @return the parsed file
   * @throws ConfigFileException if the content is not a valid v1 config file
   */
  public static MigConfigFile parse(String yaml, String fileName) {
    var lines = new HashMap<List<String>, Integer>();
    var at = new Where(fileName, null, -1, lines);
    var root = readTree(yaml, at, lines);
    var top = mapping(root, at, "the file", "a mapping with the keys version and mig-configs");
    checkKeys(top, FILE_KEYS, at, List.of());
    var version = required(top, "version", at);
    if (!version.isString() || !version.stringValue().equals(MigConfigFile.VERSION)) {
      throw at.failAt(
          List.of("version"), "\"version\" must be \"v1\", got " + YamlText.describe(version));
    }
    var configsNode = required(top, "mig-configs", at);
    var entries = mapping(configsNode, at, "\"mig-configs\"", "a mapping of config names");
    if (entries.isEmpty()) {
      throw at.failAt(List.of("mig-configs"), "\"mig-configs\" has no configs");
    }
    var configs = new ArrayList<MigConfig>();
    for (var entry : entries.entrySet()) {
      configs.add(
          config(entry.getKey(), entry.getValue(), new Where(fileName, entry.getKey(), -1, lines)));
    }
    return MigConfigFile.of(configs);
  }

  /**
   * Reads the tree, and into {@code lines} the line of every key and list element by its path (the
   * keys and list indexes from the root), so errors found in the tree can name their line.
   */
  private static JsonNode readTree(String yaml, Where at, Map<List<String>, Integer> lines) {
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

  private static MigConfig config(String name, JsonNode node, Where at) {
    if (name.isBlank()) {
      throw at.fail("config name is blank");
    }
    if (!node.isArray()) {
      throw at.fail("must be a list of items, got " + YamlText.describe(node));
    }
    if (node.isEmpty()) {
      throw at.fail("has no items");
    }
    var items = new ArrayList<MigConfigItem>();
    int index = 0;
    for (var itemNode : node.values()) {
      items.add(item(itemNode, new Where(at.file(), name, index++, at.lines())));
    }
    return new MigConfig(name, items);
  }

  private static MigConfigItem item(JsonNode node, Where at) {
    var fields = mapping(node, at, "the item", "a mapping with devices and mig-enabled");
    checkKeys(fields, ITEM_KEYS, at, List.of());
    var devices = devices(required(fields, "devices", at), at);
    var filters =
        fields.containsKey("device-filter")
            ? deviceFilters(fields.get("device-filter"), at)
            : List.<DeviceFilter>of();
    var migEnabledNode = required(fields, "mig-enabled", at);
    if (!migEnabledNode.isBoolean()) {
      throw at.failAt(
          List.of("mig-enabled"),
          "\"mig-enabled\" must be true or false, got " + YamlText.describe(migEnabledNode));
    }
    boolean migEnabled = migEnabledNode.booleanValue();
    boolean dynamic = dynamic(fields, migEnabled, at);
    var migDevicesNode = fields.get("mig-devices");
    if (migEnabled && !dynamic && (migDevicesNode == null || migDevicesNode.isNull())) {
      throw at.failAt(
          List.of("mig-devices"),
          "\"mig-enabled\" is true but \"mig-devices\" is "
              + (migDevicesNode == null ? "missing" : "empty")
              + "; write mig-devices: {} for MIG enabled without instances");
    }
    var migDevices = MigDevicesReader.read(migDevicesNode, at);
    if (!migEnabled && !migDevices.isEmpty()) {
      throw at.failAt(
          List.of("mig-devices"),
          "\"mig-devices\" must be empty or absent when \"mig-enabled\" is false");
    }
    if (!migDevices.isEmpty() && migDevices.values().stream().allMatch(count -> count == 0)) {
      throw at.failAt(
          List.of("mig-devices"),
          "\"mig-devices\" counts are all zero; write mig-devices: {} for MIG enabled without"
              + " instances");
    }
    TimeSlicing timeSlicing = new TimeSlicing.Unset();
    if (fields.containsKey("time-slicing")) {
      timeSlicing =
          new TimeSlicing.Replicas(
              replicas(fields.get("time-slicing"), List.of("time-slicing"), at));
    }
    MpsSharing mps = new MpsSharing.Unset();
    if (fields.containsKey("mps")) {
      if (timeSlicing instanceof TimeSlicing.Replicas) {
        throw at.failAt(
            List.of("mps"), "\"time-slicing\" and \"mps\" are both set; a GPU is shared one way");
      }
      mps = new MpsSharing.Replicas(replicas(fields.get("mps"), List.of("mps"), at));
    }
    var sharing =
        fields.containsKey("sharing")
            ? sharing(fields.get("sharing"), migDevices, at)
            : new LinkedHashMap<ProfileName, Sharing>();
    return new MigConfigItem(
        devices, filters, migEnabled, migDevices, timeSlicing, mps, sharing, dynamic);
  }

  /**
   * migd's {@code dynamic} key (DRA mode): true needs {@code mig-enabled: true} and none of the
   * keys that say what the GPU holds or how it is shared, since claims decide that.
   */
  private static boolean dynamic(Map<String, JsonNode> fields, boolean migEnabled, Where at) {
    var node = fields.get("dynamic");
    if (node == null) {
      return false;
    }
    if (!node.isBoolean()) {
      throw at.failAt(
          List.of("dynamic"), "\"dynamic\" must be true or false, got " + YamlText.describe(node));
    }
    if (!node.booleanValue()) {
      return false;
    }
    if (!migEnabled) {
      throw at.failAt(
          List.of("dynamic"),
          "\"dynamic\" is true but \"mig-enabled\" is false; a dynamic GPU has MIG enabled");
    }
    for (var key : List.of("mig-devices", "sharing", "time-slicing", "mps")) {
      if (fields.containsKey(key)) {
        throw at.failAt(
            List.of("dynamic"),
            "\"dynamic\" is true, so \""
                + key
                + "\" cannot be set: a dynamic GPU's instances are made when claims are prepared,"
                + " and it is not shared");
      }
    }
    return true;
  }

  private static LinkedHashMap<ProfileName, Sharing> sharing(
      JsonNode node, Map<ProfileName, Integer> migDevices, Where at) {
    var fields =
        mapping(node, at, "\"sharing\"", "a mapping of profile names to time-slicing or mps");
    var sharing = new LinkedHashMap<ProfileName, Sharing>();
    for (var entry : fields.entrySet()) {
      var text = entry.getKey();
      ProfileName profile;
      try {
        profile = ProfileName.parse(text);
      } catch (ProfileNameException e) {
        throw at.failAt(List.of("sharing", text), "\"sharing\": " + e.getMessage());
      }
      if (migDevices.getOrDefault(profile, 0) == 0) {
        throw at.failAt(
            List.of("sharing", text),
            "\"sharing\" names profile \"" + text + "\", which \"mig-devices\" does not ask for");
      }
      if (sharing.containsKey(profile)) {
        throw at.failAt(
            List.of("sharing", text), "\"sharing\" names profile " + profile + " twice");
      }
      var place = "sharing." + text;
      var kinds =
          mapping(entry.getValue(), at, "\"" + place + "\"", "{time-slicing: ...} or {mps: ...}");
      checkKeys(kinds, SHARING_KEYS, at, List.of("sharing", text));
      if (kinds.size() != 1) {
        throw at.failAt(
            List.of("sharing", text),
            "\""
                + place
                + "\" must set exactly one of time-slicing and mps, got "
                + (kinds.isEmpty() ? "neither" : "both"));
      }
      var kind = kinds.keySet().iterator().next();
      int replicas = replicas(kinds.get(kind), List.of("sharing", text, kind), at);
      sharing.put(
          profile,
          kind.equals("mps") ? new Sharing.Mps(replicas) : new Sharing.TimeSliced(replicas));
    }
    return sharing;
  }

  private static DeviceSelection devices(JsonNode node, Where at) {
    if (node.isString() && node.stringValue().equals("all")) {
      return new DeviceSelection.All();
    }
    if (!node.isArray() || node.isEmpty()) {
      throw at.failAt(
          List.of("devices"),
          "\"devices\" must be \"all\" or a non-empty list of GPU indexes, got "
              + YamlText.describe(node));
    }
    var indexes = new ArrayList<Integer>();
    for (var element : node.values()) {
      if (!element.isInt() || element.intValue() < 0) {
        throw at.failAt(
            List.of("devices"),
            "\"devices\" entries must be GPU indexes (integers >= 0), got "
                + YamlText.describe(element));
      }
      if (indexes.contains(element.intValue())) {
        throw at.failAt(
            List.of("devices"), "\"devices\" lists GPU index " + element.intValue() + " twice");
      }
      indexes.add(element.intValue());
    }
    return new DeviceSelection.Indexes(indexes);
  }

  private static List<DeviceFilter> deviceFilters(JsonNode node, Where at) {
    List<JsonNode> entries = node.isArray() ? List.copyOf(node.values()) : List.of(node);
    if (entries.isEmpty()) {
      throw at.failAt(
          List.of("device-filter"),
          "\"device-filter\" is an empty list; leave the key out to select every model");
    }
    var filters = new ArrayList<DeviceFilter>();
    for (var entry : entries) {
      if (!entry.isString()) {
        throw at.failAt(
            List.of("device-filter"),
            "\"device-filter\" entries must be strings like \"0x20B010DE\", got "
                + YamlText.describe(entry));
      }
      DeviceFilter filter;
      try {
        filter = DeviceFilter.parse(entry.stringValue());
      } catch (IllegalArgumentException e) {
        throw at.failAt(List.of("device-filter"), "\"device-filter\": " + e.getMessage());
      }
      if (filters.contains(filter)) {
        throw at.failAt(List.of("device-filter"), "\"device-filter\" lists " + filter + " twice");
      }
      filters.add(filter);
    }
    return filters;
  }

  /** The {@code replicas} of a {@code time-slicing} or {@code mps} value at {@code path}. */
  private static int replicas(JsonNode node, List<String> path, Where at) {
    var key = String.join(".", path);
    var fields = mapping(node, at, "\"" + key + "\"", "a mapping with the key replicas");
    checkKeys(fields, REPLICAS_KEYS, at, path);
    var replicas = required(fields, "replicas", at);
    var replicasPath = new ArrayList<>(path);
    replicasPath.add("replicas");
    if (!replicas.isInt() || replicas.intValue() < 1) {
      throw at.failAt(
          replicasPath,
          "\"" + key + ".replicas\" must be an integer >= 1, got " + YamlText.describe(replicas));
    }
    if (key.endsWith("mps") && replicas.intValue() > Sharing.MAX_MPS_REPLICAS) {
      throw at.failAt(
          replicasPath,
          "\""
              + key
              + ".replicas\" is "
              + replicas.intValue()
              + ", above "
              + Sharing.MAX_MPS_REPLICAS
              + " (CUDA MPS serves at most 48 clients per device)");
    }
    return replicas.intValue();
  }

  static Map<String, JsonNode> mapping(JsonNode node, Where at, String what, String expected) {
    if (!node.isObject()) {
      throw at.fail(what + " must be " + expected + ", got " + YamlText.describe(node));
    }
    var fields = new LinkedHashMap<String, JsonNode>();
    node.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
    return fields;
  }

  /** Refuses a key of {@code fields} (the mapping at {@code under} in {@code at}) not known. */
  private static void checkKeys(
      Map<String, JsonNode> fields, Set<String> known, Where at, List<String> under) {
    for (var key : fields.keySet()) {
      if (!known.contains(key)) {
        var path = new ArrayList<>(under);
        path.add(key);
        throw at.failAt(path, "unknown key \"" + String.join(".", path) + "\"");
      }
    }
  }

  private static JsonNode required(Map<String, JsonNode> fields, String key, Where at) {
    var value = fields.get(key);
    if (value == null) {
      throw at.fail("missing key \"" + key + "\"");
    }
    return value;
  }

  /**
   * The place in the file an error refers to; {@code item} is -1 above item level. {@code lines}
   * holds the line of every key and list element by its path from the root.
   */
  record Where(String file, String config, int item, Map<List<String>, Integer> lines) {
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
     * An error about the key at {@code keys} under this place, naming its line (the place's when
     * the key is not in the file).
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
  }
}
