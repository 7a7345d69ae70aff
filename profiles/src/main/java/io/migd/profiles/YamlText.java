package io.migd.profiles;

import tools.jackson.databind.JsonNode;

/** How a YAML value is shown in error messages. */
public final class YamlText {
  private static final int MAX_SHOWN = 60;

  private YamlText() {}

  /**
   * A short description of a value: a quoted string, a number, a boolean, or its kind.
   *
   * @param node the value, or null
   * @return for example {@code "all"}, {@code 4}, {@code a list}, {@code nothing}
   */
  public static String describe(JsonNode node) {
    if (node == null || node.isNull()) {
      return "nothing";
    }
    if (node.isString()) {
      var text = node.stringValue();
      return "\""
          + (text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "..." : text)
          + "\"";
    }
    if (node.isArray()) {
      return "a list";
    }
    if (node.isObject()) {
      return "a mapping";
    }
    return node.toString();
  }
}
