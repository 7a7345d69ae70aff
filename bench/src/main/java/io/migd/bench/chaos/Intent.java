package io.migd.bench.chaos;

import java.util.Map;
import java.util.TreeMap;

/**
 * An intent the runner gave the node: the label's config, or a REST layout with the generation its
 * {@code 202} named; what it asks of each GPU it selects; and when it was given.
 *
 * @param labelThen the label's value when a REST intent was accepted (a label set back to it is no
 *     new intent)
 */
record Intent(
    String source,
    String config,
    long generation,
    Map<Integer, GpuTarget> targets,
    long atNanos,
    String labelThen) {
  Intent {
    targets = Map.copyOf(new TreeMap<>(targets));
  }

  /** Whether {@code GET /api/v1/layout}'s {@code desired} is this intent. */
  boolean isDesired(String desiredSource, String desiredConfig, long desiredGeneration) {
    return switch (source) {
      case "label" -> desiredSource.equals("label") && config.equals(desiredConfig);
      default -> desiredSource.equals("rest") && generation == desiredGeneration;
    };
  }

  @Override
  public String toString() {
    return source.equals("label") ? "label " + config : "rest generation " + generation;
  }
}
