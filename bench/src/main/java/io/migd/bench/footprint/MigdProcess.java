package io.migd.bench.footprint;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One {@code java <options> -jar <app>/migd.jar serve --simulate=<8 x H100-SXM5-80GB>} process, as
 * the image starts it (the jar extracted by Boot's jar mode), on a {@link FootprintNode}: its
 * start, readiness, stop, and what {@code /proc} says of it.
 */
public final class MigdProcess implements AutoCloseable {
  /** An option {@code env:NAME=value} is an environment variable of migd, not a JVM option. */
  public static final String ENV = "env:";

  private static final String GPUS = String.join(",", Collections.nCopies(8, "H100-SXM5-80GB"));
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Pattern LISTENING =
      Pattern.compile("http listening address=\\S+ port=(\\d+)");
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

  final Process process;
  final Path log;
  private final long startedNanos;
  private int port;

  private MigdProcess(Process process, Path log, long startedNanos) {
    this.process = process;
    this.log = log;
    this.startedNanos = startedNanos;
  }

  /**
   * Starts migd with {@code options} (JVM options and {@code env:} variables) on {@code node}'s
   * surfaces, its output in {@code <work>/<label>.log}.
   */
  public static MigdProcess start(
      String java, Path app, Path work, List<String> options, FootprintNode node, String label)
      throws IOException {
    var command = new ArrayList<String>();
    command.add(java);
    command.add("--enable-native-access=ALL-UNNAMED");
    options.stream().filter(option -> !option.startsWith(ENV)).forEach(command::add);
    command.addAll(
        List.of(
            "-jar",
            app.resolve("migd.jar").toString(),
            "serve",
            "--simulate=" + GPUS,
            // the kernel picks the port; migd logs the one it got
            "--server.port=0"));
    var builder = new ProcessBuilder(command).directory(work.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(
            n ->
                n.startsWith("NVML_SIM_")
                    || n.startsWith("MIGD_")
                    || n.startsWith("SPRING")
                    || n.equals("NODE_NAME")
                    || n.equals("KUBECONFIG")
                    || n.startsWith("KUBERNETES_")
                    || n.equals("JAVA_TOOL_OPTIONS"));
    builder.environment().putAll(node.environment());
    for (String option : options) {
      if (option.startsWith(ENV)) {
        String[] variable = option.substring(ENV.length()).split("=", 2);
        builder.environment().put(variable[0], variable[1]);
      }
    }
    Path log = work.resolve(label + ".log");
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    long started = System.nanoTime();
    var migd = new MigdProcess(builder.start(), log, started);
    node.watchRegistration(migd.process);
    return migd;
  }

  /** Waits for readiness; returns the milliseconds from start to the first 200. */
  public double awaitReady() throws Exception {
    long deadline = startedNanos + READY_TIMEOUT.toNanos();
    port = awaitListening(deadline);
    var request = HttpRequest.newBuilder(uri("/actuator/health/readiness")).build();
    while (System.nanoTime() < deadline) {
      alive("before ready");
      try {
        if (HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return (System.nanoTime() - startedNanos) / 1e6;
        }
      } catch (IOException refused) {
        // listening was logged, so this is a hiccup; the deadline bounds the retries
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    throw new IllegalStateException("migd not ready within " + READY_TIMEOUT + ", see " + log);
  }

  private int awaitListening(long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      alive("before it listened");
      Matcher listening = LISTENING.matcher(Files.readString(log));
      if (listening.find()) {
        return Integer.parseInt(listening.group(1));
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    throw new IllegalStateException("migd did not listen within " + READY_TIMEOUT);
  }

  /** {@code http://127.0.0.1:<port><path>} once ready. */
  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** Fails when migd exited. */
  void alive(String when) {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "migd exited " + when + ": " + process.exitValue() + ", see " + log);
    }
  }

  /**
   * How many GPUs the reconciler had logged in sync so far: a daemon that is ready before it has
   * reconciled would advertise a node it has not made yet.
   */
  public long gpusInSync() throws IOException {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(line -> line.contains("state=success")).count();
    }
  }

  /** User and system time of the process and its waited-for children. */
  public double cpuMs() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields from the state (field 3): utime 14, stime 15, cutime 16, cstime 17; ticks of 10 ms
    long ticks = 0;
    for (int field = 14; field <= 17; field++) {
      ticks += Long.parseLong(fields[field - 3]);
    }
    return ticks * 10.0;
  }

  /** {@code VmRSS}, {@code RssAnon}, {@code RssFile}, ... of {@code /proc/<pid>/status}, in MiB. */
  public double statusMib(String key) throws IOException {
    alive("while measured");
    try (Stream<String> lines =
        Files.lines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      return lines
              .filter(line -> line.startsWith(key + ":"))
              .map(line -> line.substring(key.length() + 1).trim().split("\\s+")[0])
              .mapToLong(Long::parseLong)
              .findFirst()
              .orElseThrow()
          / 1024.0;
    }
  }

  /** The threads of the process by name, minus digits: where the thread stacks go. */
  public Map<String, Long> threads() throws IOException {
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
      return tasks
          .map(
              task -> {
                try {
                  return Files.readString(task.resolve("comm")).strip().replaceAll("\\d+", "#");
                } catch (IOException gone) {
                  return "(gone)";
                }
              })
          .collect(
              java.util.stream.Collectors.groupingBy(
                  n -> n, java.util.TreeMap::new, java.util.stream.Collectors.counting()));
    }
  }

  /** {@code jcmd <pid> <command...>}'s output. */
  public String jcmd(String java, String... command) throws Exception {
    var line = new ArrayList<String>();
    line.add(Path.of(java).resolveSibling("jcmd").toString());
    line.add(Long.toString(process.pid()));
    line.addAll(List.of(command));
    Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes());
    jcmd.waitFor();
    return out;
  }

  /** SIGTERM, as the kubelet stops the pod; an AOT training run writes its cache on this exit. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("migd did not stop within 120 s of SIGTERM");
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
