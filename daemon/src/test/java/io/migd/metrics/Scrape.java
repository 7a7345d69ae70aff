package io.migd.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of one scrape in Prometheus' text format, for assertions on names and labels. */
record Scrape(List<Sample> samples) {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One line: a series and its value. */
  record Sample(String name, Map<String, String> labels, double value) {}

  Scrape {
    samples = List.copyOf(samples);
  }

  static Scrape parse(String text) {
    var samples = new ArrayList<Sample>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      var labels = new LinkedHashMap<String, String>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new Scrape(samples);
  }

  /** The samples of one series name. */
  List<Sample> named(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** The samples of one name whose labels include {@code labels}. */
  List<Sample> named(String name, Map<String, String> labels) {
    return named(name).stream()
        .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
        .toList();
  }

  /** The one value of a series; fails unless exactly one matches. */
  double value(String name, Map<String, String> labels) {
    var found = named(name, labels);
    if (found.size() != 1) {
      throw new AssertionError(
          "expected one " + name + labels + " but found " + found.size() + ": " + found);
    }
    return found.getFirst().value();
  }
}
