package io.migd.bench;

import io.migd.bench.footprint.AotTrain;
import io.migd.bench.footprint.FootprintLoad;
import io.migd.bench.footprint.FootprintNode;
import io.migd.bench.footprint.FootprintNode.Mode;
import io.migd.bench.footprint.MigdProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The footprint of {@code migd serve} on a simulated node of 8 H100s, run as the image runs it: the
 * jar extracted by Boot's jar mode ({@code java -Djarmode=tools -jar migd.jar extract}), started as
 * {@code java <options> -jar <dir>/migd.jar serve --simulate=8 x H100-SXM5-80GB}, per kubelet mode
 * ({@link FootprintNode}: surfaces off; device plugin with the test kubelet, PodResources and the
 * Node in the mock API server; DRA with the test DRA kubelet and {@code resource.k8s.io/v1}). For
 * each JVM configuration and mode it measures, over N runs: the time from process start to the
 * first 200 of {@code /actuator/health/readiness}, the CPU time used by then, and VmRSS after a
 * rest. A configuration with an AOT cache first makes it with one training run of the same options,
 * layout and mode ({@code -XX:AOTCacheOutput}, stopped with SIGTERM once ready).
 *
 * <p>Arguments: the extracted directory (holding {@code migd.jar} and {@code lib/}), runs per
 * configuration (default 3), seconds at rest before RSS is read (default 15), then any of: {@code
 * modes=off,device-plugin,dra} (default all three), {@code nmt} (one more run per configuration
 * with {@code -XX:NativeMemoryTracking=summary}, printing {@code jcmd VM.native_memory summary} and
 * the threads at rest), {@code load} (one more run under a scrape storm and a reshape or claim
 * burst, {@link FootprintLoad}), names of the configurations below (default {@code image-aot}), and
 * configurations of one's own ({@code "name|-Xmx48m env:MALLOC_ARENA_MAX=2|aot"}).
 */
public final class Footprint {
  /** An option {@code env:NAME=value} is an environment variable of the process. */
  public static final String ENV = MigdProcess.ENV;

  /**
   * What the image and the chart run (daemon/Dockerfile, helm/migd/values.yaml): the serial
   * collector, C1 only with one compiler thread and five times its default thresholds, a heap for
   * the daemon's live set with a young generation of at most 8 MB, soft references cleared at each
   * collection, small thread stacks and code cache, glibc's free memory returned every 5 s, an AOT
   * cache without method profiles (only C2 would use them), gRPC's Netty with unpooled buffers and
   * one event-loop thread, two malloc arenas, and the OpenAPI document and Swagger UI off. Public
   * for the chaos runner, which runs migd as the image does.
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
          "-XX:CompileThresholdScaling=5",
          "-XX:SoftRefLRUPolicyMSPerMB=0",
          "-XX:+UnlockDiagnosticVMOptions",
          "-XX:-AOTRecordTraining",
          "-XX:-AOTReplayTraining",
          "-Dio.grpc.netty.shaded.io.netty.allocator.type=unpooled",
          "-Dio.grpc.netty.shaded.io.netty.eventLoopThreads=1",
          ENV + "MALLOC_ARENA_MAX=2",
          ENV + "SPRINGDOC_API_DOCS_ENABLED=false",
          ENV + "SPRINGDOC_SWAGGER_UI_ENABLED=false");

  /** One JVM configuration: its options and whether it runs with an AOT cache made for it. */
  record Config(String name, List<String> options, boolean aot) {}

  static final List<Config> CONFIGS =
      List.of(
          new Config("defaults", List.of(), false),
          new Config("image", IMAGE, false),
          new Config("image-aot", IMAGE, true));

  /** What one run measured. */
  record Run(double readyMs, double cpuMs, double rssMib, double anonMib, long gpusInSync) {}

  private Footprint() {}

  /** Runs the configurations per mode and prints one line per run and a summary of each. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException(
          "usage: Footprint <extracted dir> [runs] [rest seconds] [modes=off,device-plugin,dra]"
              + " [nmt] [load] [names | 'name|options|aot' ...]");
    }
    Path app = Path.of(args[0]).toAbsolutePath();
    if (!Files.isRegularFile(app.resolve("migd.jar"))) {
      throw new IllegalArgumentException(app + " holds no migd.jar: extract it first");
    }
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int rest = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    List<String> rest3 = args.length > 3 ? List.of(args).subList(3, args.length) : List.of();
    List<Mode> modes = List.of(Mode.values());
    boolean nmt = false;
    boolean load = false;
    var configs = new ArrayList<Config>();
    for (String arg : rest3) {
      if (arg.startsWith("modes=")) {
        modes = Stream.of(arg.substring(6).split(",")).map(Mode::of).toList();
      } else if (arg.equals("nmt")) {
        nmt = true;
      } else if (arg.equals("load")) {
        load = true;
      } else if (arg.contains("|")) {
        configs.add(parse(arg));
      } else {
        configs.add(find(arg));
      }
    }
    if (configs.isEmpty()) {
      configs.add(find("image-aot"));
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    System.out.printf(
        "java %s (%s), %d cores, %d runs, %d s at rest, load average %s%n",
        Runtime.version(), java, Runtime.getRuntime().availableProcessors(), runs, rest, load());
    var summaries = new ArrayList<String>();
    for (Config config : configs) {
      for (Mode mode : modes) {
        Path work = Files.createTempDirectory("migd-footprint-");
        String name = config.name() + " " + mode.label;
        List<String> options = new ArrayList<>(config.options());
        if (config.aot()) {
          Path cache = work.resolve("migd.aot");
          train(java, app, work, config, mode, cache);
          options.add("-XX:AOTCache=" + cache);
        }
        var results = new ArrayList<Run>();
        for (int i = 0; i < runs; i++) {
          Run run = measure(java, app, work, options, mode, rest, i);
          System.out.printf(
              "%-28s run %d: ready %5.0f ms, cpu %5.0f ms, rss %5.1f MiB (anon %5.1f),"
                  + " %d GPUs reconciled when ready, load %s%n",
              name,
              i + 1,
              run.readyMs(),
              run.cpuMs(),
              run.rssMib(),
              run.anonMib(),
              run.gpusInSync(),
              load());
          results.add(run);
        }
        if (!results.isEmpty()) {
          summaries.add(summary(name, config, results));
        }
        if (nmt) {
          nativeMemory(java, app, work, options, mode, rest);
        }
        if (load) {
          try (var node = FootprintNode.start(mode, Files.createTempDirectory(work, "load-"));
              var migd = MigdProcess.start(java, app, work, options, node, "load")) {
            migd.awaitReady();
            TimeUnit.SECONDS.sleep(rest);
            System.out.println(name + " " + FootprintLoad.run(migd, node));
            migd.stop();
          }
        }
        if (Boolean.getBoolean("footprint.keep")) {
          System.out.println("kept " + work);
        } else {
          deleteTree(work);
        }
      }
    }
    System.out.println();
    System.out.println("configuration and mode: median (min-max) over the runs; load " + load());
    summaries.forEach(System.out::println);
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

  private static void train(String java, Path app, Path work, Config config, Mode mode, Path cache)
      throws Exception {
    AotTrain.train(java, app, work, config.options(), mode, cache);
    System.out.printf(
        "%-28s AOT cache %.1f MiB%n",
        config.name() + " " + mode.label, Files.size(cache) / (1024.0 * 1024.0));
  }

  private static Run measure(
      String java, Path app, Path work, List<String> options, Mode mode, int rest, int i)
      throws Exception {
    try (var node = FootprintNode.start(mode, Files.createTempDirectory(work, "run-"));
        var migd = MigdProcess.start(java, app, work, options, node, "run-" + i)) {
      double readyMs = migd.awaitReady();
      double cpuMs = migd.cpuMs();
      long inSync = migd.gpusInSync();
      TimeUnit.SECONDS.sleep(rest);
      var run = new Run(readyMs, cpuMs, migd.statusMib("VmRSS"), migd.statusMib("RssAnon"), inSync);
      migd.stop();
      return run;
    }
  }

  /** One run with native memory tracking: its summary and threads at rest. */
  private static void nativeMemory(
      String java, Path app, Path work, List<String> options, Mode mode, int rest)
      throws Exception {
    var tracked = new ArrayList<>(options);
    tracked.add("-XX:NativeMemoryTracking=summary");
    try (var node = FootprintNode.start(mode, Files.createTempDirectory(work, "nmt-"));
        var migd = MigdProcess.start(java, app, work, tracked, node, "nmt")) {
      migd.awaitReady();
      TimeUnit.SECONDS.sleep(rest);
      System.out.printf(
          "NMT %s: VmRSS %.1f MiB, RssAnon %.1f MiB, RssFile %.1f MiB, threads %s%n%s",
          mode.label,
          migd.statusMib("VmRSS"),
          migd.statusMib("RssAnon"),
          migd.statusMib("RssFile"),
          migd.threads(),
          migd.jcmd(java, "VM.native_memory", "summary"));
      // after the summary: the histogram's full collection changes the heap at rest
      String histogram = migd.jcmd(java, "GC.class_histogram");
      System.out.printf(
          "heap after a full collection: %s%n%s%n",
          migd.jcmd(java, "GC.heap_info").strip(),
          String.join("\n", histogram.lines().limit(25).toList()));
      migd.stop();
    }
  }

  /** The machine's load average (1, 5, 15 minutes): the numbers' context on a shared machine. */
  static String load() throws java.io.IOException {
    String[] loadavg = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return loadavg[0] + " " + loadavg[1] + " " + loadavg[2];
  }

  private static String summary(String name, Config config, List<Run> runs) {
    return String.format(
        "%-28s ready %s ms | cpu to ready %s ms | rss %s MiB | rss anon %s MiB | %s%s",
        name,
        stats(runs, Run::readyMs, "%.0f"),
        stats(runs, Run::cpuMs, "%.0f"),
        stats(runs, Run::rssMib, "%.1f"),
        stats(runs, Run::anonMib, "%.1f"),
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

  private static void deleteTree(Path root) throws java.io.IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
