package io.migd.pool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;

/** What a device takes of one counter set when it is allocated. */
public record CounterConsumption(String counterSet, SequencedMap<String, Long> counters) {
  /** Copies the counters. */
  public CounterConsumption {
    Objects.requireNonNull(counterSet);
    counters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(counters));
  }
}
