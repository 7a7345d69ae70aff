package io.migd.bench.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The resources of migd's process at one moment, from {@code /proc} and {@code jcmd}: RSS, heap
 * used after a full GC ({@code GC.run}, then {@code GC.heap_info}), threads, file descriptors,
 * native memory committed (NMT summary) and child processes. -1 where a reading failed.
 */
record ResourceSample(
    long atSeconds,
    int life,
    long rssKib,
    long heapAfterGcKib,
    long threads,
    long fds,
    long nmtCommittedKib,
    long children) {
  private static final Pattern USED =
      Pattern.compile("(?m)^(?:DefNew|Tenured|\\S+ generation)\\s.*?used (\\d+)K");
  private static final Pattern NMT = Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");
  private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");
  private static final Pattern THREADS = Pattern.compile("(?m)^Threads:\\s+(\\d+)");

  static ResourceSample of(long atSeconds, int life, ProcessHandle process) {
    long pid = process.pid();
    String status = read(Path.of("/proc", Long.toString(pid), "status"));
    long fds;
    try (Stream<Path> files = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      fds = files.count();
    } catch (IOException e) {
      fds = -1;
    }
    jcmd(pid, "GC.run");
    long heap = -1;
    Matcher used = USED.matcher(jcmd(pid, "GC.heap_info"));
    while (used.find()) {
      heap = Math.max(heap, 0) + Long.parseLong(used.group(1));
    }
    return new ResourceSample(
        atSeconds,
        life,
        first(RSS, status),
        heap,
        first(THREADS, status),
        fds,
        first(NMT, jcmd(pid, "VM.native_memory", "summary")),
        process.children().count());
  }

  @Override
  public String toString() {
    return String.format(
        "resources t=%ds life=%d rss=%.1fMiB heapAfterGc=%.1fMiB threads=%d fds=%d nmtCommitted=%.1fMiB children=%d",
        atSeconds,
        life,
        rssKib / 1024.0,
        heapAfterGcKib / 1024.0,
        threads,
        fds,
        nmtCommittedKib / 1024.0,
        children);
  }

  /** Start, peak and end of each resource over the samples of the longest-lived migd. */
  static List<String> summary(List<ResourceSample> samples) {
    if (samples.isEmpty()) {
      return List.of("resources: no sample");
    }
    int life =
        samples.stream()
            .collect(Collectors.groupingBy(ResourceSample::life, Collectors.counting()))
            .entrySet()
            .stream()
            .max(Map.Entry.comparingByValue())
            .orElseThrow()
            .getKey();
    List<ResourceSample> of = samples.stream().filter(s -> s.life() == life).toList();
    var lines = new ArrayList<String>();
    lines.add(
        String.format(
            "resources of migd life %d (%d samples, t=%d..%d s): start / peak / end",
            life, of.size(), of.getFirst().atSeconds(), of.getLast().atSeconds()));
    lines.add(line("RSS MiB", of, ResourceSample::rssKib, 1024.0));
    lines.add(line("heap after GC MiB", of, ResourceSample::heapAfterGcKib, 1024.0));
    lines.add(line("NMT committed MiB", of, ResourceSample::nmtCommittedKib, 1024.0));
    lines.add(line("threads", of, ResourceSample::threads, 1));
    lines.add(line("file descriptors", of, ResourceSample::fds, 1));
    lines.add(line("child processes", of, ResourceSample::children, 1));
    return lines;
  }

  private static String line(
      String name, List<ResourceSample> of, ToLongFunction<ResourceSample> value, double unit) {
    long peak = of.stream().mapToLong(value).max().orElse(-1);
    return String.format(
        "  %-18s %8.1f / %8.1f / %8.1f",
        name,
        value.applyAsLong(of.getFirst()) / unit,
        peak / unit,
        value.applyAsLong(of.getLast()) / unit);
  }

  private static long first(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static String jcmd(long pid, String... command) {
    var args = new ArrayList<String>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
    args.add(Long.toString(pid));
    args.addAll(List.of(command));
    try {
      Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(30, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
