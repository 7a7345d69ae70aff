package io.migd.bench.dra;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordingStream;

/**
 * Every flush to the disk ({@code fsync}, the JFR event {@code jdk.FileForce}) the process made
 * while it ran, so a sample's time can be split into NVML's, the disk's and migd's own: the DRA
 * checkpoint is written through before a prepare touches NVML and before it answers, and how long a
 * flush takes is the disk's (and every other writer's on it), not migd's work.
 */
final class DiskFlushes {
  /** One flush: when it began and how long it took. */
  record Flush(Instant start, Duration took) {}

  private final List<Flush> flushes = new CopyOnWriteArrayList<>();
  private final RecordingStream stream = new RecordingStream();

  /** Starts recording at once. */
  DiskFlushes() {
    stream.enable("jdk.FileForce").withThreshold(Duration.ZERO).withoutStackTrace();
    stream.onEvent("jdk.FileForce", e -> flushes.add(new Flush(e.getStartTime(), e.getDuration())));
    stream.startAsync();
  }

  /** Stops recording once every flush so far has been delivered. */
  void stop() {
    stream.stop();
    stream.close();
  }

  /** Nanoseconds spent in flushes that began between {@code from} and {@code to}. */
  long within(Instant from, Instant to) {
    return flushes.stream()
        .filter(f -> !f.start().isBefore(from) && f.start().isBefore(to))
        .mapToLong(f -> f.took().toNanos())
        .sum();
  }
}
