package io.migd.bench.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The intents the runner gave the node, in the order it gave them: the label's config and the last
 * REST layout accepted, and when the label watch may have been cut (API outages, migd restarts).
 * Says which intent must be the newest.
 */
final class IntentLedger {
  /** Label and REST intents closer than this are both acceptable as the newest. */
  private static final long AMBIGUOUS_NANOS = Duration.ofSeconds(10).toNanos();

  private final NodeCatalog catalog;
  private final List<long[]> disruptions = new ArrayList<>();
  private Intent label;
  private Intent rest;

  IntentLedger(NodeCatalog catalog, String firstConfig) {
    this.catalog = catalog;
    this.label = labelIntent(firstConfig);
  }

  String labelValue() {
    return label.config();
  }

  /** The generation of the last REST intent accepted, 0 before the first. */
  long restGeneration() {
    return rest == null ? 0 : rest.generation();
  }

  void labelSet(String config) {
    label = labelIntent(config);
  }

  /** A {@code 202} for {@code config} (or, when null, the explicit layout {@code targets}). */
  void restAccepted(long generation, String config, Map<Integer, GpuTarget> targets) {
    Map<Integer, GpuTarget> asked = config == null ? targets : catalog.configs().get(config);
    rest = new Intent("rest", config, generation, asked, System.nanoTime(), label.config());
  }

  /** The label watch may be cut from now until {@code resumeWithin} has passed. */
  void disrupted(Duration resumeWithin) {
    long now = System.nanoTime();
    disruptions.add(new long[] {now, now + resumeWithin.toNanos()});
  }

  /**
   * The intents that may count as the newest. A label set before a REST intent may reach migd after
   * it (close together, or the watch was cut in between): migd then takes the label as the newer,
   * as the contract lets it, so both count. A label set back to the value the REST intent was
   * recorded with is no new intent.
   */
  List<Intent> newest() {
    if (rest == null) {
      return List.of(label);
    }
    if (label.atNanos() - rest.atNanos() > 0) {
      return label.config().equals(rest.labelThen()) ? List.of(rest, label) : List.of(label);
    }
    boolean close = rest.atNanos() - label.atNanos() < AMBIGUOUS_NANOS;
    boolean cut =
        disruptions.stream().anyMatch(d -> d[1] - label.atNanos() > 0 && rest.atNanos() - d[0] > 0);
    return close || cut ? List.of(rest, label) : List.of(rest);
  }

  private Intent labelIntent(String config) {
    return new Intent("label", config, 0, catalog.configs().get(config), System.nanoTime(), config);
  }
}
