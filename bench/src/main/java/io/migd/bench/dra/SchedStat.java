package io.migd.bench.dra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * With {@code -Dprepare.trace=true}, a sample whose time outside NVML is over {@link #SLOW} is
 * printed with every thread's time on a CPU and time runnable but waiting for one (Linux's {@code
 * /proc/self/task/TID/schedstat}) during it: a stall the threads spent waiting for a CPU is the
 * machine's preemption; one they spent neither running nor runnable is a wait (a lock, a flush to
 * the disk).
 */
final class SchedStat {
  static final boolean TRACE = Boolean.getBoolean("prepare.trace");
  static final Duration SLOW = Duration.ofMillis(12);

  private SchedStat() {}

  /** Per thread ({@code name/tid}): nanoseconds on a CPU and waiting for one, so far. */
  static Map<String, long[]> read() {
    var result = new TreeMap<String, long[]>();
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        try {
          String name = Files.readString(task.resolve("comm")).strip();
          String[] fields = Files.readString(task.resolve("schedstat")).strip().split(" ");
          result.put(
              name + "/" + task.getFileName(),
              new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])});
        } catch (IOException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }

  /** Prints the sample and what each thread that ran or waited over 0.5 ms did meanwhile. */
  static void report(
      String device, Instant from, long took, long inNvml, Map<String, long[]> before) {
    var threads = new StringBuilder();
    read()
        .forEach(
            (thread, now) -> {
              long[] then = before.getOrDefault(thread, new long[2]);
              long ran = now[0] - then[0];
              long waited = now[1] - then[1];
              if (ran > 500_000 || waited > 500_000) {
                threads.append(
                    String.format(
                        Locale.ROOT,
                        " [%s ran %.1f waited for a CPU %.1f]",
                        thread,
                        ran / 1e6,
                        waited / 1e6));
              }
            });
    System.out.printf(
        Locale.ROOT,
        "slow: %s at %s answer %.1f ms, in NVML %.1f, outside %.1f:%s%n",
        device,
        from,
        took / 1e6,
        inNvml / 1e6,
        (took - inNvml) / 1e6,
        threads);
  }
}
