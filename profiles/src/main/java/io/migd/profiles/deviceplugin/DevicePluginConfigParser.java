package io.migd.profiles.deviceplugin;

import io.migd.profiles.Sharing;
import io.migd.profiles.YamlText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads NVIDIA's k8s-device-plugin config ({@code version: v1}) as NVIDIA's plugin reads it (DESIGN
 * section 13), and takes from it what migd offers: {@code flags.migStrategy} and the sharing of
 * {@code sharing.timeSlicing} or {@code sharing.mps}.
 *
 * <p>Taken: {@code version} empty or {@code v1}; {@code flags.migStrategy} ({@code none}, {@code
 * single}, {@code mixed}); per section {@code renameByDefault}, {@code failRequestsGreaterThanOne}
 * (default false for time-slicing, true for MPS, as NVIDIA's plugin) and {@code resources} of
 * {@code {name, rename, devices, replicas}}, {@code name} being {@code nvidia.com/gpu} or {@code
 * nvidia.com/mig-<profile>} (the domain may be left out). When both sections are there MPS wins, as
 * in NVIDIA's plugin.
 *
 * <p>Ignored with one warning each: other {@code flags}, unknown keys, the top-level {@code
 * resources} and {@code imex}, {@code devices} other than {@code all} (a count or a list of GPU
 * indexes, MIG indexes or UUIDs), a {@code rename} other than {@code <name>.shared}, and a resource
 * named twice in a section (the first counts).
 *
 * <p>Refused, naming the key: not YAML, an unknown {@code version}, an unknown {@code migStrategy},
 * a section without resources, a resource without a name or of another name, {@code replicas}
 * missing or below 2 (above 48 for MPS), a malformed device reference, MPS on a MIG resource, and
 * values of the wrong type.
 */
public final class DevicePluginConfigParser {
  private static final YAMLMapper MAPPER =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  private static final String VERSION = "v1";
  private static final Set<String> STRATEGIES = Set.of("none", "single", "mixed");
  private static final Set<String> IGNORED_TOP = Set.of("resources", "imex");
  private static final Set<String> SECTION_KEYS =
      Set.of("renameByDefault", "failRequestsGreaterThanOne", "resources");
  private static final Set<String> RESOURCE_KEYS = Set.of("name", "rename", "devices", "replicas");
  private static final Pattern MIG_INDEX = Pattern.compile("\\d+:\\d+");
  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern MIG_UUID_OLD = Pattern.compile("GPU-(.+)/\\d+/\\d+");

  private DevicePluginConfigParser() {}

  /**
   * Reads one config.
   *
   * @param yaml the config's text
   * @param source what messages call it: a file name, or a file and a key ({@code dp-configs/ts-4})
   * @return the config migd takes with its warnings, or why it is refused
   */
  public static DevicePluginConfigRead read(String yaml, String source) {
    var reading = new Reading(source);
    try {
      return new DevicePluginConfigRead.Valid(reading.config(yaml), reading.warnings);
    } catch (Refusal e) {
      return new DevicePluginConfigRead.Refused(reading.prefix() + e.getMessage());
    }
  }

  /** Why a config is refused; the message names the key. */
  private static final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refusal(String message) {
      super(message, null, false, false);
    }
  }

  /** One read: the warnings so far. */
  private static final class Reading {
    private final String source;
    private final List<String> warnings = new ArrayList<>();

    Reading(String source) {
      this.source = source;
    }

    String prefix() {
      return "device-plugin config \"" + source + "\": ";
    }

    void warn(String what) {
      warnings.add(prefix() + what);
    }

    DevicePluginConfig config(String yaml) {
      JsonNode root;
      try {
        root = MAPPER.readTree(yaml);
      } catch (JacksonException e) {
        var location = e.getLocation();
        throw new Refusal(
            "not valid YAML: "
                + e.getOriginalMessage().strip()
                + (location == null ? "" : " (line " + location.getLineNr() + ")"));
      }
      if (root == null || root.isMissingNode() || root.isNull()) {
        return DevicePluginConfig.EMPTY;
      }
      var top = mapping(root, "the config");
      var version = top.get("version");
      if (version != null
          && !version.isNull()
          && !(version.isString()
              && (version.stringValue().isEmpty() || version.stringValue().equals(VERSION)))) {
        throw new Refusal("unknown \"version\" " + YamlText.describe(version) + "; migd reads v1");
      }
      String strategy = "";
      Map<String, Sharing> resources = Map.of();
      for (var entry : top.entrySet()) {
        switch (entry.getKey()) {
          case "version" -> {}
          case "flags" -> strategy = flags(entry.getValue());
          case "sharing" -> resources = sharing(entry.getValue());
          default -> {
            if (IGNORED_TOP.contains(entry.getKey())) {
              warn("\"" + entry.getKey() + "\" is ignored, as NVIDIA's device plugin ignores it");
            } else {
              warn("unknown key \"" + entry.getKey() + "\" is ignored");
            }
          }
        }
      }
      return new DevicePluginConfig(strategy, resources);
    }

    private String flags(JsonNode node) {
      if (node.isNull()) {
        return "";
      }
      String strategy = "";
      for (var entry : mapping(node, "\"flags\"").entrySet()) {
        if (!entry.getKey().equals("migStrategy")) {
          warn("\"flags." + entry.getKey() + "\" is ignored; migd takes only flags.migStrategy");
          continue;
        }
        var value = entry.getValue();
        if (!value.isString() || !STRATEGIES.contains(value.stringValue())) {
          throw new Refusal(
              "\"flags.migStrategy\" must be none, single or mixed, got "
                  + YamlText.describe(value));
        }
        strategy = value.stringValue();
      }
      return strategy;
    }

    private Map<String, Sharing> sharing(JsonNode node) {
      if (node.isNull()) {
        return Map.of();
      }
      Map<String, Sharing> timeSliced = Map.of();
      Map<String, Sharing> mps = null;
      for (var entry : mapping(node, "\"sharing\"").entrySet()) {
        switch (entry.getKey()) {
          case "timeSlicing" -> timeSliced = section(entry.getValue(), "timeSlicing", false);
          case "mps" -> mps = section(entry.getValue(), "mps", true);
          default -> warn("unknown key \"sharing." + entry.getKey() + "\" is ignored");
        }
      }
      if (mps == null) {
        return timeSliced;
      }
      if (!timeSliced.isEmpty()) {
        warn("\"sharing.timeSlicing\" is ignored: \"sharing.mps\" is set, and MPS wins");
      }
      return mps;
    }

    private Map<String, Sharing> section(JsonNode node, String name, boolean isMps) {
      String at = "sharing." + name;
      if (node.isNull()) {
        throw new Refusal("\"" + at + "\" has no resources");
      }
      var fields = mapping(node, "\"" + at + "\"");
      for (var key : fields.keySet()) {
        if (!SECTION_KEYS.contains(key)) {
          warn("unknown key \"" + at + "." + key + "\" is ignored");
        }
      }
      boolean renameByDefault = bool(fields, "renameByDefault", at, false);
      boolean oneReplica = bool(fields, "failRequestsGreaterThanOne", at, isMps);
      var list = fields.get("resources");
      if (list == null || list.isNull() || (list.isArray() && list.isEmpty())) {
        throw new Refusal("\"" + at + ".resources\" is missing or empty: no resources specified");
      }
      if (!list.isArray()) {
        throw new Refusal(
            "\"" + at + ".resources\" must be a list, got " + YamlText.describe(list));
      }
      var shared = new LinkedHashMap<String, Sharing>();
      int index = 0;
      for (var element : list.values()) {
        String place = at + ".resources[" + index++ + "]";
        var resource = resource(element, place, isMps);
        if (shared.containsKey(resource.name())) {
          warn("\"" + place + "\" names " + resource.name() + " again and is ignored");
          continue;
        }
        boolean renamed = renameByDefault || resource.renamedShared();
        var offer = new Sharing.Offer(renamed, oneReplica);
        shared.put(
            resource.name(),
            isMps
                ? new Sharing.Mps(resource.replicas(), offer)
                : new Sharing.TimeSliced(resource.replicas(), offer));
      }
      return shared;
    }

    /** One entry of {@code resources}, as far as migd takes it. */
    private record Entry(String name, int replicas, boolean renamedShared) {}

    private Entry resource(JsonNode node, String at, boolean isMps) {
      var fields = mapping(node, "\"" + at + "\"");
      for (var key : fields.keySet()) {
        if (!RESOURCE_KEYS.contains(key)) {
          warn("unknown key \"" + at + "." + key + "\" is ignored");
        }
      }
      var nameNode = fields.get("name");
      if (nameNode == null || !nameNode.isString() || nameNode.stringValue().isBlank()) {
        throw new Refusal(
            "\"" + at + ".name\" must name a resource, got " + YamlText.describe(nameNode));
      }
      String name = NvidiaResources.withDomain(nameNode.stringValue());
      boolean mig = NvidiaResources.profileOf(name).isPresent();
      if (!name.equals(NvidiaResources.GPU) && !mig) {
        throw new Refusal(
            "\""
                + at
                + ".name\" is "
                + YamlText.describe(nameNode)
                + "; migd shares nvidia.com/gpu and nvidia.com/mig-<profile>");
      }
      if (isMps && mig) {
        throw new Refusal(
            "\""
                + at
                + ".name\" is "
                + name
                + ": MPS is not supported on MIG devices by NVIDIA's device plugin; use"
                + " sharing.timeSlicing, or migd's own sharing key of the MIG config");
      }
      devices(fields.get("devices"), at);
      var replicas = fields.get("replicas");
      int max = isMps ? Sharing.MAX_MPS_REPLICAS : Integer.MAX_VALUE;
      if (replicas == null || !replicas.isInt() || replicas.intValue() < 2) {
        throw new Refusal(
            "\"" + at + ".replicas\" must be an integer >= 2, got " + YamlText.describe(replicas));
      }
      if (replicas.intValue() > max) {
        throw new Refusal(
            "\""
                + at
                + ".replicas\" is "
                + replicas.intValue()
                + ", above "
                + max
                + " (CUDA MPS serves at most 48 clients per device)");
      }
      return new Entry(name, replicas.intValue(), renamedShared(fields.get("rename"), name, at));
    }

    private boolean renamedShared(JsonNode rename, String name, String at) {
      if (rename == null || rename.isNull()) {
        return false;
      }
      if (!rename.isString()) {
        throw new Refusal(
            "\"" + at + ".rename\" must be a resource name, got " + YamlText.describe(rename));
      }
      String to = NvidiaResources.withDomain(rename.stringValue());
      if (to.equals(NvidiaResources.shared(name))) {
        return true;
      }
      warn(
          "\""
              + at
              + ".rename\" "
              + YamlText.describe(rename)
              + " is ignored, as NVIDIA's device plugin ignores renames other than "
              + NvidiaResources.shared(name));
      return false;
    }

    /** Checks {@code devices}; only {@code all} (the default) is taken, the rest is ignored. */
    private void devices(JsonNode node, String at) {
      String key = at + ".devices";
      if (node == null || node.isNull()) {
        return;
      }
      if (node.isString()) {
        if (!node.stringValue().equals("all")) {
          throw new Refusal(
              "\""
                  + key
                  + "\" is "
                  + YamlText.describe(node)
                  + "; the only string it takes is \"all\"");
        }
        return;
      }
      if (node.isIntegralNumber()) {
        if (node.asLong() <= 0) {
          throw new Refusal("\"" + key + "\" is a count of devices, which must be > 0");
        }
        warn("\"" + key + "\" (a count) is ignored: migd shares every device of the resource");
        return;
      }
      if (!node.isArray()) {
        throw new Refusal(
            "\"" + key + "\" must be \"all\", a count or a list, got " + YamlText.describe(node));
      }
      int index = 0;
      for (var element : node.values()) {
        if (!isDeviceReference(element)) {
          throw new Refusal(
              "\""
                  + key
                  + "["
                  + index
                  + "]\" is "
                  + YamlText.describe(element)
                  + ", not a GPU index, a MIG index (gpu:mig) or a GPU or MIG UUID");
        }
        index++;
      }
      warn("\"" + key + "\" (a list) is ignored: migd shares every device of the resource");
    }

    private static boolean isDeviceReference(JsonNode element) {
      if (element.isIntegralNumber()) {
        return element.asLong() >= 0;
      }
      if (!element.isString()) {
        return false;
      }
      String text = element.stringValue();
      return text.chars().allMatch(Character::isDigit) && !text.isEmpty()
          || MIG_INDEX.matcher(text).matches()
          || text.startsWith("GPU-") && UUID.matcher(text.substring(4)).matches()
          || text.startsWith("MIG-") && isMigUuid(text.substring(4));
    }

    private static boolean isMigUuid(String suffix) {
      if (UUID.matcher(suffix).matches()) {
        return true;
      }
      var old = MIG_UUID_OLD.matcher(suffix);
      return old.matches() && UUID.matcher(old.group(1)).matches();
    }

    private static boolean bool(
        Map<String, JsonNode> fields, String key, String at, boolean fallback) {
      var node = fields.get(key);
      if (node == null || node.isNull()) {
        return fallback;
      }
      if (!node.isBoolean()) {
        throw new Refusal(
            "\"" + at + "." + key + "\" must be true or false, got " + YamlText.describe(node));
      }
      return node.booleanValue();
    }

    private static Map<String, JsonNode> mapping(JsonNode node, String what) {
      if (!node.isObject()) {
        throw new Refusal(what + " must be a mapping, got " + YamlText.describe(node));
      }
      var fields = new LinkedHashMap<String, JsonNode>();
      node.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
      return fields;
    }
  }
}
