package io.migd.profiles;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One record line of {@code gpu-models.tsv}, split at {@code |} and checked against the fields its
 * kind must have: positional fields first (such as the model key), then exactly the named fields
 * {@code name=value}, in any order, each once.
 */
final class CatalogLine {
  static final List<String> MODEL_FIELDS =
      List.of("name", "pci", "arch", "cc", "memory_mib", "sm", "mig", "memory_slices", "gi_ids");
  static final List<String> GI_FIELDS =
      List.of(
          "index",
          "id",
          "slices",
          "instances",
          "memory_mib",
          "sm",
          "ce",
          "dec",
          "enc",
          "jpg",
          "ofa",
          "placements");
  static final List<String> CI_FIELDS = List.of("index", "id", "slices", "instances", "sm");

  private final String what;
  private final List<String> positional;
  private final Map<String, String> fields = new HashMap<>();

  /**
   * Splits a line of the given kind.
   *
   * @throws IllegalArgumentException if a positional field is missing or a named field is
   *     malformed, unknown, repeated or missing
   */
  CatalogLine(String[] parts, List<String> positionalNames, List<String> fieldNames) {
    for (int i = 1; i <= positionalNames.size(); i++) {
      if (parts.length <= i || parts[i].isEmpty() || parts[i].contains("=")) {
        throw new IllegalArgumentException(
            "field " + (i + 1) + " must be the " + positionalNames.get(i - 1));
      }
    }
    positional = List.of(parts).subList(1, positionalNames.size() + 1);
    what = parts[0] + " " + String.join(" ", positional);
    for (var part : Arrays.asList(parts).subList(positionalNames.size() + 1, parts.length)) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw fail("field \"" + part + "\" is not name=value");
      }
      var name = part.substring(0, eq);
      if (!fieldNames.contains(name)) {
        throw fail("unknown field \"" + name + "\"");
      }
      if (fields.put(name, part.substring(eq + 1)) != null) {
        throw fail("field \"" + name + "\" appears twice");
      }
    }
    for (var name : fieldNames) {
      if (!fields.containsKey(name)) {
        throw fail("field \"" + name + "\" is missing");
      }
    }
  }

  /** The positional field at {@code index} (0 is the one after the record kind). */
  String positional(int index) {
    return positional.get(index);
  }

  /** A named field's text. */
  String text(String name) {
    return fields.get(name);
  }

  /** A named field as a non-negative decimal number. */
  int number(String name) {
    return Decimal.parse(fields.get(name), name);
  }

  /** An error about this record, prefixed with its kind and positional fields. */
  IllegalArgumentException fail(String problem) {
    return new IllegalArgumentException(what + ": " + problem);
  }
}
