package io.migd.pool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * A shared counter set, {@code gpu-<minor>-counter-set}: what one dynamic GPU has, which its
 * devices consume.
 *
 * @param counters counter name to value, in publishing order
 */
public record CounterSet(String name, SequencedMap<String, Long> counters) {
  /** Copies the counters. */
  public CounterSet {
    Objects.requireNonNull(name);
    counters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(counters));
  }
}
