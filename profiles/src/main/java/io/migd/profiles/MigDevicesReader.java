package io.migd.profiles;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import tools.jackson.databind.JsonNode;

/** Reads the {@code mig-devices} mapping of a config item: profile names to counts. */
final class MigDevicesReader {
  private MigDevicesReader() {}

  /**
   * Reads the value of {@code mig-devices}; null (key absent) and an empty value ({@code
   * mig-devices:}, which mig-parted accepts) both mean no MIG devices.
   */
  static SequencedMap<ProfileName, Integer> read(JsonNode node, ConfigPlace at) {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    if (node == null || node.isNull()) {
      return devices;
    }
    var fields = at.mapping(node, "\"mig-devices\"", "a mapping of profile names to counts");
    var spelled = new LinkedHashMap<ProfileName, String>();
    for (var entry : fields.entrySet()) {
      var text = entry.getKey();
      ProfileName name;
      try {
        name = ProfileName.parse(text);
      } catch (ProfileNameException e) {
        throw at.failAt(List.of("mig-devices", text), "\"mig-devices\": " + e.getMessage());
      }
      var count = entry.getValue();
      if (!count.isInt() || count.intValue() < 0) {
        throw at.failAt(
            List.of("mig-devices", text),
            "\"mig-devices\" count of \""
                + text
                + "\" must be an integer >= 0, got "
                + YamlText.describe(count));
      }
      var earlier = spelled.putIfAbsent(name, text);
      if (earlier != null) {
        throw at.failAt(
            List.of("mig-devices", text),
            "\"mig-devices\" names profile "
                + name
                + " twice (as \""
                + earlier
                + "\" and \""
                + text
                + "\")");
      }
      devices.put(name, count.intValue());
    }
    return devices;
  }
}
