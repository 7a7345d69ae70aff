package io.migd.profiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

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
 * and takes none of {@code mig-devices}, {@code sharing}, {@code time-slicing} and {@code mps}; its
 * {@code shares: true} needs {@code dynamic: true} or {@code mig-enabled: false} and takes neither
 * {@code time-slicing} nor {@code mps}.
 *
 * <p>This class reads the file, its configs and their items; {@link ConfigYamlReader} reads the
 * YAML, {@link DeviceSelectionReader}, {@link MigDevicesReader} and {@link SharingReader} read an
 * item's keys, and {@link ConfigPlace} names the place of an error.
 */
public final class MigConfigParser {
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
          "dynamic",
          "shares");

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
    var at = new ConfigPlace(fileName, null, -1, lines);
    var root = ConfigYamlReader.read(yaml, at, lines);
    var top = at.mapping(root, "the file", "a mapping with the keys version and mig-configs");
    at.checkKeys(top, FILE_KEYS, List.of());
    var version = at.required(top, "version");
    if (!version.isString() || !version.stringValue().equals(MigConfigFile.VERSION)) {
      throw at.failAt(
          List.of("version"), "\"version\" must be \"v1\", got " + YamlText.describe(version));
    }
    var configsNode = at.required(top, "mig-configs");
    var entries = at.mapping(configsNode, "\"mig-configs\"", "a mapping of config names");
    if (entries.isEmpty()) {
      throw at.failAt(List.of("mig-configs"), "\"mig-configs\" has no configs");
    }
    var configs = new ArrayList<MigConfig>();
    for (var entry : entries.entrySet()) {
      configs.add(
          config(
              entry.getKey(),
              entry.getValue(),
              new ConfigPlace(fileName, entry.getKey(), -1, lines)));
    }
    return MigConfigFile.of(configs);
  }

  private static MigConfig config(String name, JsonNode node, ConfigPlace at) {
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
      items.add(item(itemNode, new ConfigPlace(at.file(), name, index++, at.lines())));
    }
    return new MigConfig(name, items);
  }

  private static MigConfigItem item(JsonNode node, ConfigPlace at) {
    var fields = at.mapping(node, "the item", "a mapping with devices and mig-enabled");
    at.checkKeys(fields, ITEM_KEYS, List.of());
    var devices = DeviceSelectionReader.devices(at.required(fields, "devices"), at);
    var filters =
        fields.containsKey("device-filter")
            ? DeviceSelectionReader.deviceFilters(fields.get("device-filter"), at)
            : List.<DeviceFilter>of();
    var migEnabledNode = at.required(fields, "mig-enabled");
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
              SharingReader.replicas(fields.get("time-slicing"), List.of("time-slicing"), at));
    }
    MpsSharing mps = new MpsSharing.Unset();
    if (fields.containsKey("mps")) {
      if (timeSlicing instanceof TimeSlicing.Replicas) {
        throw at.failAt(
            List.of("mps"), "\"time-slicing\" and \"mps\" are both set; a GPU is shared one way");
      }
      mps = new MpsSharing.Replicas(SharingReader.replicas(fields.get("mps"), List.of("mps"), at));
    }
    var sharing =
        fields.containsKey("sharing")
            ? SharingReader.perProfile(fields.get("sharing"), migDevices, at)
            : new LinkedHashMap<ProfileName, Sharing>();
    return new MigConfigItem(
        devices,
        filters,
        migEnabled,
        migDevices,
        timeSlicing,
        mps,
        sharing,
        dynamic,
        shares(fields, migEnabled, dynamic, at));
  }

  /**
   * migd's {@code shares} key (DRA mode): true needs a dynamic item or a whole GPU, whose devices
   * are shared by claims under MPS, so the item shares them no other way.
   */
  private static boolean shares(
      Map<String, JsonNode> fields, boolean migEnabled, boolean dynamic, ConfigPlace at) {
    if (!flag(fields, "shares", at)) {
      return false;
    }
    if (migEnabled && !dynamic) {
      throw at.failAt(
          List.of("shares"),
          "\"shares\" is true with \"mig-enabled\" true but no \"dynamic\": true; shares are"
              + " published for dynamic GPUs and whole GPUs (mig-enabled: false), not for static MIG"
              + " slices");
    }
    excludes(
        fields,
        "shares",
        List.of("time-slicing", "mps"),
        "each share is an MPS client with its own memory and compute limits",
        at);
    return true;
  }

  /** Fails, naming {@code flag} and the key, when any of {@code keys} is set beside it. */
  private static void excludes(
      Map<String, JsonNode> fields, String flag, List<String> keys, String why, ConfigPlace at) {
    for (var key : keys) {
      if (fields.containsKey(key)) {
        throw at.failAt(
            List.of(flag), "\"" + flag + "\" is true, so \"" + key + "\" cannot be set: " + why);
      }
    }
  }

  /** A boolean key: false when absent, else its value, or an error naming the key. */
  private static boolean flag(Map<String, JsonNode> fields, String key, ConfigPlace at) {
    var node = fields.get(key);
    if (node == null) {
      return false;
    }
    if (!node.isBoolean()) {
      throw at.failAt(
          List.of(key), "\"" + key + "\" must be true or false, got " + YamlText.describe(node));
    }
    return node.booleanValue();
  }

  /**
   * migd's {@code dynamic} key (DRA mode): true needs {@code mig-enabled: true} and none of the
   * keys that say what the GPU holds or how it is shared, since claims decide that.
   */
  private static boolean dynamic(Map<String, JsonNode> fields, boolean migEnabled, ConfigPlace at) {
    if (!flag(fields, "dynamic", at)) {
      return false;
    }
    if (!migEnabled) {
      throw at.failAt(
          List.of("dynamic"),
          "\"dynamic\" is true but \"mig-enabled\" is false; a dynamic GPU has MIG enabled");
    }
    excludes(
        fields,
        "dynamic",
        List.of("mig-devices", "sharing", "time-slicing", "mps"),
        "a dynamic GPU's instances are made when claims are prepared, and it is not shared",
        at);
    return true;
  }
}
