package io.migd.profiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads how a config item shares its GPU: the {@code replicas} of {@code time-slicing} and {@code
 * mps}, and the per-profile {@code sharing} mapping, which may name only profiles the item asks
 * for.
 */
final class SharingReader {
  private static final Set<String> REPLICAS_KEYS = Set.of("replicas");
  private static final Set<String> SHARING_KEYS = Set.of("time-slicing", "mps");

  private SharingReader() {}

  /** The value of {@code sharing}: each profile it names, shared one way. */
  static LinkedHashMap<ProfileName, Sharing> perProfile(
      JsonNode node, Map<ProfileName, Integer> migDevices, ConfigPlace at) {
    var fields =
        at.mapping(node, "\"sharing\"", "a mapping of profile names to time-slicing or mps");
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
          at.mapping(entry.getValue(), "\"" + place + "\"", "{time-slicing: ...} or {mps: ...}");
      at.checkKeys(kinds, SHARING_KEYS, List.of("sharing", text));
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

  /** The {@code replicas} of a {@code time-slicing} or {@code mps} value at {@code path}. */
  static int replicas(JsonNode node, List<String> path, ConfigPlace at) {
    var key = String.join(".", path);
    var fields = at.mapping(node, "\"" + key + "\"", "a mapping with the key replicas");
    at.checkKeys(fields, REPLICAS_KEYS, path);
    var replicas = at.required(fields, "replicas");
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
}
