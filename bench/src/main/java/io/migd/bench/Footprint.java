package io.migd.bench;

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
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The footprint of {@code migd serve} on a simulated 8-GPU node, run as the image runs it: the jar
 * extracted by Boot's jar mode ({@code java -Djarmode=tools -jar migd.jar extract}), started as
 * {@code java <options> -jar <dir>/migd.jar serve --simulate=8 x H100-SXM5-80GB
 * --migd.config=all-balanced} with the kubelet surface off. For each JVM configuration it measures,
 * over N runs: the time from process start to the first 200 of {@code /actuator/health/readiness},
 * the CPU time the process had used by then, and VmRSS after a rest. Configurations with an AOT
 * cache first make it with one training run of the same options and layout ({@code
 * -XX:AOTCacheOutput}, stopped with SIGTERM once ready, as the image's training step does).
 *
 * <p>Arguments: the extracted directory (holding {@code migd.jar} and {@code lib/}), runs per
 * configuration (default 5), seconds at rest before RSS is read (default 10), then optionally the
 * names of the configurations to run (default all) and configurations of one's own ({@code
 * "name|-Xmx48m -Xss512k|aot"}), or {@code nmt=<name>} to print the JVM's native memory summary of
 * one configuration at rest.
 */
public final class Footprint {
  private static final String GPUS = String.join(",", Collections.nCopies(8, "H100-SXM5-80GB"));
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

  /**
   * An option {@code env:NAME=value} is an environment variable of the process, not a JVM option.
   */
  public static final String ENV = "env:";

  private static final Pattern LISTENING =
      Pattern.compile("http listening address=\\S+ port=(\\d+)");

  /**
   * (b): the serial collector (one GC thread, no concurrent machinery), C1 only, a heap sized for
   * the daemon's live set (about 25 MB after a full GC with the API document built) rather than the
   * machine, smaller thread stacks and code cache.
   */
  private static final List<String> LEAN =
      List.of(
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Xms8m",
          "-Xmx64m",
          "-Xss512k",
          "-XX:ReservedCodeCacheSize=16m");

  /**
   * (h): what the image and the chart run (daemon/Dockerfile, helm/migd/values.yaml): (b) with a
   * young generation of at most 8 MB (the eden's pages stay resident once touched), one compiler
   * thread, glibc's free memory returned every 5 s, two malloc arenas, and the OpenAPI document and
   * Swagger UI off. Public for the chaos runner, which runs migd as the image does.
   */
  public static final List<String> IMAGE =
      List.of(
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Xms8m",
          "-Xmx64m",
          "-XX:MaxNewSize=8m",
          "-Xss512k",
          "-XX:ReservedCodeCacheSize=16m",
          "-XX:CICompilerCount=1",
          "-XX:TrimNativeHeapInterval=5000",
          "-XX:+ExitOnOutOfMemoryError",
          ENV + "MALLOC_ARENA_MAX=2",
          ENV + "SPRINGDOC_API_DOCS_ENABLED=false",
          ENV + "SPRINGDOC_SWAGGER_UI_ENABLED=false");

  /** One JVM configuration: its options and whether it runs with an AOT cache made for it. */
  record Config(String name, List<String> options, boolean aot) {}

  static final List<Config> CONFIGS =
      List.of(
          new Config("a-defaults", List.of(), false),
          new Config("b-lean", LEAN, false),
          new Config("c-lean-aot", LEAN, true),
          new Config("d-defaults-aot", List.of(), true),
          new Config(
              "e-lean-aot-lazy", concat(LEAN, "-Dspring.main.lazy-initialization=true"), true),
          new Config(
              "f-serial-c2-aot",
              LEAN.stream().filter(o -> !o.startsWith("-XX:TieredStopAtLevel")).toList(),
              true),
          new Config(
              "g-lean-aot-no-apidocs",
              concat(
                  concat(LEAN, "-Dspringdoc.api-docs.enabled=false"),
                  "-Dspringdoc.swagger-ui.enabled=false"),
              true),
          new Config("h-image", IMAGE, false),
          new Config("i-image-aot", IMAGE, true));

  /** What one run measured. */
  record Run(
      double readyMs, double cpuMsAtReady, double rssMib, double rssAnonMib, long gpusInSync) {}

  private Footprint() {}

  /** Runs the configurations and prints one line per run and a summary per configuration. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException(
          "usage: Footprint <extracted dir> [runs] [rest seconds]"
              + " [names | 'name|options|aot' ... | nmt=<name>]");
    }
    Path app = Path.of(args[0]).toAbsolutePath();
    if (!Files.isRegularFile(app.resolve("migd.jar"))) {
      throw new IllegalArgumentException(app + " holds no migd.jar: extract it first");
    }
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int restSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    List<String> names = args.length > 3 ? List.of(args).subList(3, args.length) : List.of();
    Path work = Files.createTempDirectory("migd-footprint-");
    String java = ProcessHandle.current().info().command().orElse("java");
    System.out.printf(
        "java %s (%s), %d cores, %d runs, %d s at rest%n",
        Runtime.version(), java, Runtime.getRuntime().availableProcessors(), runs, restSeconds);

    for (String name : names) {
      if (name.startsWith("nmt=")) {
        String wanted = name.substring(4);
        Config config = wanted.contains("|") ? parse(wanted) : find(wanted);
        nativeMemory(java, app, work, config, restSeconds);
        deleteTree(work);
        return;
      }
    }
    var configs = new ArrayList<Config>();
    for (Config config : CONFIGS) {
      if (names.isEmpty() || names.contains(config.name())) {
        configs.add(config);
      }
    }
    for (String name : names) {
      if (name.contains("|")) {
        configs.add(parse(name));
      }
    }
    var summaries = new ArrayList<String>();
    for (Config config : configs) {
      List<String> options = new ArrayList<>(config.options());
      if (config.aot()) {
        Path cache = work.resolve(config.name() + ".aot");
        train(java, app, work, config, cache);
        options.add("-XX:AOTCache=" + cache);
      }
      var results = new ArrayList<Run>();
      for (int i = 0; i < runs; i++) {
        Run run = measure(java, app, work, options, restSeconds);
        System.out.printf(
            "%-22s run %d: ready %5.0f ms, cpu %5.0f ms, rss %5.1f MiB (anon %5.1f), %d of 8 GPUs"
                + " reconciled when ready%n",
            config.name(),
            i + 1,
            run.readyMs(),
            run.cpuMsAtReady(),
            run.rssMib(),
            run.rssAnonMib(),
            run.gpusInSync());
        results.add(run);
      }
      summaries.add(summary(config, results));
    }
    System.out.println();
    System.out.println("configuration: median (min-max) over the runs");
    summaries.forEach(System.out::println);
    deleteTree(work);
  }

  /** {@code name|options separated by spaces[|aot]}, a configuration of one's own. */
  private static Config parse(String spec) {
    String[] parts = spec.split("\\|", -1);
    List<String> options = parts[1].isBlank() ? List.of() : List.of(parts[1].trim().split("\\s+"));
    return new Config(parts[0], options, parts.length > 2 && parts[2].equals("aot"));
  }

  private static Config find(String name) {
    return CONFIGS.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no configuration " + name));
  }

  /**
   * One training run: ready, then SIGTERM, so the cache holds what start-up and a reconcile use.
   */
  private static void train(String java, Path app, Path work, Config config, Path cache)
      throws Exception {
    Files.deleteIfExists(cache);
    var options = new ArrayList<>(config.options());
    options.add("-XX:AOTCacheOutput=" + cache);
    String label = "train-" + config.name();
    Process process = start(java, app, work, options, label);
    try {
      awaitReady(process, work.resolve(label + ".log"));
      stop(process);
    } finally {
      process.destroyForcibly();
    }
    if (!Files.isRegularFile(cache)) {
      throw new IllegalStateException("training run made no AOT cache " + cache);
    }
    System.out.printf(
        "%-22s AOT cache %.1f MiB%n", config.name(), Files.size(cache) / (1024.0 * 1024.0));
  }

  private static Run measure(
      String java, Path app, Path work, List<String> options, int restSeconds) throws Exception {
    long started = System.nanoTime();
    Process process = start(java, app, work, options, "run");
    try {
      awaitReady(process, work.resolve("run.log"));
      double readyMs = (System.nanoTime() - started) / 1e6;
      double cpuMs = cpuMs(process.pid());
      long gpusInSync = gpusInSync(work.resolve("run.log"));
      TimeUnit.SECONDS.sleep(restSeconds);
      if (!process.isAlive()) {
        throw new IllegalStateException("migd exited at rest: " + process.exitValue());
      }
      double rss = statusKib(process.pid(), "VmRSS") / 1024.0;
      double anon = statusKib(process.pid(), "RssAnon") / 1024.0;
      stop(process);
      return new Run(readyMs, cpuMs, rss, anon, gpusInSync);
    } finally {
      process.destroyForcibly();
    }
  }

  private static void nativeMemory(String java, Path app, Path work, Config config, int restSeconds)
      throws Exception {
    var options = new ArrayList<>(config.options());
    if (config.aot()) {
      Path cache = work.resolve(config.name() + ".aot");
      train(java, app, work, config, cache);
      options.add("-XX:AOTCache=" + cache);
    }
    options.add("-XX:NativeMemoryTracking=summary");
    Process process = start(java, app, work, options, "nmt");
    try {
      awaitReady(process, work.resolve("nmt.log"));
      TimeUnit.SECONDS.sleep(restSeconds);
      System.out.printf(
          "VmRSS %d KiB, RssAnon %d KiB, RssFile %d KiB%n",
          statusKib(process.pid(), "VmRSS"),
          statusKib(process.pid(), "RssAnon"),
          statusKib(process.pid(), "RssFile"));
      Path jcmd = Path.of(java).resolveSibling("jcmd");
      var command =
          new ProcessBuilder(
                  jcmd.toString(), Long.toString(process.pid()), "VM.native_memory", "summary")
              .inheritIO()
              .start();
      command.waitFor();
      stop(process);
    } finally {
      process.destroyForcibly();
    }
  }

  private static Process start(String java, Path app, Path work, List<String> options, String label)
      throws IOException {
    Path state = Files.createTempDirectory(work, "state-");
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
            "--migd.config=all-balanced",
            "--migd.state-dir=" + state,
            // the kernel picks the port; migd logs the one it got
            "--server.port=0"));
    var builder = new ProcessBuilder(command).directory(work.toFile());
    // the simulated GPUs in memory, no kubelet, no Kubernetes: the node as the image's training
    // sees it
    builder.environment().remove("NVML_SIM_STATE");
    builder.environment().remove("NODE_NAME");
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().put("MIGD_KUBELET_ENABLED", "false");
    for (String option : options) {
      if (option.startsWith(ENV)) {
        String[] variable = option.substring(ENV.length()).split("=", 2);
        builder.environment().put(variable[0], variable[1]);
      }
    }
    builder.redirectErrorStream(true);
    builder.redirectOutput(work.resolve(label + ".log").toFile());
    return builder.start();
  }

  /** Waits for the {@code http listening} line in {@code log}, then for readiness on that port. */
  private static void awaitReady(Process process, Path log) throws Exception {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    int port = awaitListening(process, log, deadline);
    var request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
            .timeout(Duration.ofSeconds(2))
            .build();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("migd exited before ready: " + process.exitValue());
      }
      try {
        if (HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException refused) {
        // listening was logged, so this is a hiccup; the deadline bounds the retries
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    throw new IllegalStateException("migd not ready within " + READY_TIMEOUT);
  }

  /** The port of the {@code http listening} line migd logs once its web server listens. */
  private static int awaitListening(Process process, Path log, long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("migd exited before it listened: " + process.exitValue());
      }
      Matcher listening = LISTENING.matcher(Files.readString(log));
      if (listening.find()) {
        return Integer.parseInt(listening.group(1));
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    throw new IllegalStateException("migd did not listen within " + READY_TIMEOUT);
  }

  /** SIGTERM, as the kubelet stops the pod; an AOT training run writes its cache on this exit. */
  private static void stop(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("migd did not stop within 120 s of SIGTERM");
    }
  }

  /**
   * How many GPUs the reconciler had logged in sync by the time the daemon said ready: a daemon
   * that is ready before it has reconciled would advertise a node it has not made yet.
   */
  private static long gpusInSync(Path log) throws IOException {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(line -> line.contains("state=success")).count();
    }
  }

  /** User and system time of the process and its waited-for children (the simulator's tool). */
  private static double cpuMs(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields from the state (field 3): utime 14, stime 15, cutime 16, cstime 17; ticks of 10 ms
    long ticks = 0;
    for (int field = 14; field <= 17; field++) {
      ticks += Long.parseLong(fields[field - 3]);
    }
    return ticks * 10.0;
  }

  private static long statusKib(long pid, String key) throws IOException {
    try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
      return lines
          .filter(line -> line.startsWith(key + ":"))
          .map(line -> line.substring(key.length() + 1).trim().split("\\s+")[0])
          .mapToLong(Long::parseLong)
          .findFirst()
          .orElseThrow();
    }
  }

  private static String summary(Config config, List<Run> runs) {
    return String.format(
        "%-22s ready %s ms | cpu to ready %s ms | rss %s MiB | rss anon %s MiB | %s%s",
        config.name(),
        stats(runs, Run::readyMs, "%.0f"),
        stats(runs, Run::cpuMsAtReady, "%.0f"),
        stats(runs, Run::rssMib, "%.1f"),
        stats(runs, Run::rssAnonMib, "%.1f"),
        String.join(" ", config.options()),
        config.aot() ? " + AOT cache" : "");
  }

  private static String stats(List<Run> runs, ToDoubleFunction<Run> value, String format) {
    double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return String.format(
        format + " (" + format + "-" + format + ")", median, sorted[0], sorted[n - 1]);
  }

  private static List<String> concat(List<String> options, String option) {
    var all = new ArrayList<>(options);
    all.add(option);
    return List.copyOf(all);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
