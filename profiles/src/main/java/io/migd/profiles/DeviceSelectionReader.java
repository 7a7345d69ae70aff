package io.migd.profiles;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Reads which GPUs a config item selects: its {@code devices} (all, or distinct indexes) and its
 * {@code device-filter} (distinct PCI device ids).
 */
final class DeviceSelectionReader {
  private DeviceSelectionReader() {}

  /** The value of {@code devices}: {@code all} or a non-empty list of distinct GPU indexes. */
  static DeviceSelection devices(JsonNode node, ConfigPlace at) {
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

  /** The value of {@code device-filter}: one PCI device id or a non-empty list of distinct ones. */
  static List<DeviceFilter> deviceFilters(JsonNode node, ConfigPlace at) {
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
}
