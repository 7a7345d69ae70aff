package io.migd.profiles;

import java.util.stream.Collectors;

/**
 * Renders a {@link MigConfigFile} as YAML in mig-parted's own layout (block items, quoted profile
 * names, device filters as a flow list), for {@code migd export} and for generating the shipped
 * files. {@link MigConfigParser} reads the output back to an equal file.
 */
public final class MigConfigWriter {
  private static final String PLAIN_NAME = "[A-Za-z0-9][A-Za-z0-9._/-]*";

  private MigConfigWriter() {}

  /**
   * Renders the file: {@code version: v1}, then each config under {@code mig-configs}, separated by
   * blank lines.
   *
   * @param file the file to render
   * @return the YAML text, ending with a newline
   */
  public static String write(MigConfigFile file) {
    var out = new StringBuilder();
    out.append("version: ").append(file.version()).append('\n');
    out.append("mig-configs:\n");
    boolean first = true;
    for (var config : file.configs()) {
      if (!first) {
        out.append('\n');
      }
      first = false;
      out.append("  ").append(key(config.name())).append(":\n");
      for (var item : config.items()) {
        item(out, item);
      }
    }
    return out.toString();
  }

  private static void item(StringBuilder out, MigConfigItem item) {
    var devices =
        switch (item.devices()) {
          case DeviceSelection.All() -> "all";
          case DeviceSelection.Indexes(var indexes) ->
              indexes.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
        };
    out.append("    - devices: ").append(devices).append('\n');
    if (!item.deviceFilters().isEmpty()) {
      out.append("      device-filter: ")
          .append(
              item.deviceFilters().stream()
                  .map(f -> quote(f.toString()))
                  .collect(Collectors.joining(", ", "[", "]")))
          .append('\n');
    }
    out.append("      mig-enabled: ").append(item.migEnabled()).append('\n');
    if (item.dynamic()) {
      out.append("      dynamic: true\n");
    } else if (item.migEnabled()) {
      if (item.migDevices().isEmpty()) {
        out.append("      mig-devices: {}\n");
      } else {
        out.append("      mig-devices:\n");
        item.migDevices()
            .forEach(
                (name, count) ->
                    out.append("        ")
                        .append(quote(name.toString()))
                        .append(": ")
                        .append(count)
                        .append('\n'));
      }
    }
    if (item.shares()) {
      out.append("      shares: true\n");
    }
    switch (item.timeSlicing()) {
      case TimeSlicing.Unset() -> {}
      case TimeSlicing.Replicas(var replicas) ->
          out.append("      time-slicing: {replicas: ").append(replicas).append("}\n");
    }
    switch (item.mps()) {
      case MpsSharing.Unset() -> {}
      case MpsSharing.Replicas(var replicas) ->
          out.append("      mps: {replicas: ").append(replicas).append("}\n");
    }
    if (!item.sharing().isEmpty()) {
      out.append("      sharing:\n");
      item.sharing()
          .forEach(
              (name, sharing) ->
                  out.append("        ")
                      .append(quote(name.toString()))
                      .append(": {")
                      .append(sharing.strategy())
                      .append(": {replicas: ")
                      .append(sharing.replicas())
                      .append("}}\n"));
    }
  }

  /** Config names are written plain when YAML reads them back as the same string. */
  private static String key(String name) {
    boolean plain =
        name.matches(PLAIN_NAME)
            && !name.matches("[0-9._-]+")
            && !name.matches("(?i)true|false|null|yes|no|on|off|y|n");
    return plain ? name : quote(name);
  }

  /** A YAML double-quoted scalar; escapes what YAML requires and control characters. */
  private static String quote(String text) {
    var out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else if ((c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0xfeff) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
