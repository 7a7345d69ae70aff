package io.migd.bench.chaos;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The chaos runner of issue 20: drives a real {@code migd serve --simulate=...} on eight simulated
 * GPUs of mixed models, with the test kubelet and the fabric8 mock API server, through a seeded mix
 * of reshapes, label changes, holders, faults, kills and hostile requests, checking the invariants
 * after every operation and at every settle, and sampling migd's resources. Writes a trace of every
 * operation; {@code --replay=TRACE} runs a trace's operations again at the same offsets.
 *
 * <p>Exit status 0 when no invariant was violated, 1 otherwise, 2 on bad usage.
 */
public final class Chaos {
  /** The label the Node carries when migd first starts (device-plugin mode). */
  static final String FIRST_CONFIG = "all-balanced";

  /** Held so the level sticks: the mock API server logs every request, gRPC every socket option. */
  private static final Logger JUL_ROOT = Logger.getLogger("");

  private Chaos() {}

  public static void main(String[] args) throws Exception {
    ChaosSettings settings;
    try {
      settings = ChaosSettings.parse(List.of(args));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    ChaosReport report = run(settings);
    System.exit(report.violations().isEmpty() ? 0 : 1);
  }

  /** Runs the chaos of {@code settings}, prints the report, and returns it. */
  static ChaosReport run(ChaosSettings settings) throws Exception {
    Optional<Replay> replay = settings.replay().map(Replay::read);
    long seed = replay.map(Replay::seed).orElse(settings.seed());
    if (!Files.isRegularFile(settings.migdJar())) {
      throw new IllegalArgumentException(
          settings.migdJar() + " is no file: build daemon/target/migd.jar first");
    }
    JUL_ROOT.setLevel(Level.SEVERE);
    Arrays.stream(JUL_ROOT.getHandlers()).forEach(h -> h.setLevel(Level.SEVERE));
    var report = new ChaosReport(seed);
    Files.createDirectories(settings.work());
    Path work = Files.createTempDirectory(settings.work(), "migd-chaos-");
    System.out.printf(
        "chaos seed=%d mode=%s work=%s trace=%s%n", seed, settings.mode(), work, settings.trace());
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().factory());
    long start = System.nanoTime();
    String firstConfig = settings.dra() ? OpGenerator.ALL_DYNAMIC : FIRST_CONFIG;
    try (var node =
            new ChaosNode(
                settings.migdJar().toAbsolutePath(),
                work,
                settings.models(),
                seed,
                firstConfig,
                settings);
        BufferedWriter trace = Files.newBufferedWriter(settings.trace(), StandardCharsets.UTF_8)) {
      // a runner ended by a signal takes its migd along (its try-with-resources does not run)
      Thread orphans =
          Thread.ofPlatform()
              .unstarted(
                  () -> {
                    if (node.migd.life() != null) {
                      node.migd.kill();
                    }
                  });
      Runtime.getRuntime().addShutdownHook(orphans);
      node.migd.start("");
      if (!node.migd.awaitReady(settings.settleTimeout())) {
        throw new IllegalStateException("migd did not become ready:\n" + node.migd.life().tail(40));
      }
      String configs = node.migd.get("/api/v1/configs").orElseThrow().body();
      var catalog = NodeCatalog.of(node.nvml(), configs);
      var run = new ChaosRun(node, catalog, report, settings, firstConfig);
      sampler.scheduleAtFixedRate(
          () -> sample(node, report, start),
          0,
          settings.sampleEvery().toSeconds(),
          TimeUnit.SECONDS);
      trace.write(
          "# chaos seed="
              + seed
              + " models="
              + settings.models()
              + " rate="
              + settings.rate()
              + " mode="
              + settings.mode()
              + "\n");
      var generator =
          new OpGenerator(seed, catalog, settings.settleEvery(), settings.kills(), settings.dra());
      long pause = Math.round(1e9 / settings.rate());
      // operations are timed from the moment migd first became ready
      long opsStart = System.nanoTime();
      int step = 0;
      while (true) {
        long offset = System.nanoTime() - opsStart;
        // past the run's length, one last settle ends it
        boolean generating =
            replay.isEmpty() && settings.length().generates(step, Duration.ofNanos(offset));
        Op op;
        if (replay.isPresent()) {
          if (step >= replay.get().ops().size()) {
            break;
          }
          Replay.Entry entry = replay.get().ops().get(step);
          sleepUntil(opsStart + entry.offsetNanos());
          op = entry.op();
        } else if (generating) {
          sleepUntil(opsStart + (long) step * pause);
          op = generator.next();
        } else {
          op = new Op.Settle();
        }
        step++;
        long at = (System.nanoTime() - opsStart) / 1_000_000;
        String outcome = run.execute(step, op);
        trace.write(step + "\t" + at + "\t" + op.line() + "\n");
        trace.write("# " + step + " " + outcome + "\n");
        trace.flush();
        run.check(step);
        if (replay.isEmpty() && !generating) {
          break;
        }
      }
      sampler.shutdownNow();
      sampler.awaitTermination(60, TimeUnit.SECONDS);
      sample(node, report, start);
      Runtime.getRuntime().removeShutdownHook(orphans);
    } finally {
      sampler.shutdownNow();
    }
    report.print(System.out, Duration.ofNanos(System.nanoTime() - start));
    if (report.violations().isEmpty()) {
      deleteTree(work);
    } else {
      System.out.println("migd's logs and the node's files are kept in " + work);
    }
    return report;
  }

  private static void sample(ChaosNode node, ChaosReport report, long start) {
    try {
      MigdDaemon.Life life = node.migd.life();
      if (life != null && life.ready && life.process.isAlive()) {
        report.sample(
            ResourceSample.of(
                (System.nanoTime() - start) / 1_000_000_000, life.number, life.process.toHandle()));
      }
    } catch (RuntimeException e) {
      System.out.println("resource sample failed: " + e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  private static void sleepUntil(long nanos) throws InterruptedException {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  /** A trace read back: its seed and its operations with their offsets from the start. */
  record Replay(long seed, List<Entry> ops) {
    record Entry(long offsetNanos, Op op) {}

    static Replay read(Path trace) {
      try {
        long seed = 1;
        var ops = new ArrayList<Entry>();
        for (String line : Files.readAllLines(trace, StandardCharsets.UTF_8)) {
          if (line.startsWith("# chaos seed=")) {
            seed = Long.parseLong(line.substring("# chaos seed=".length()).split(" ")[0]);
          } else if (!line.startsWith("#") && !line.isBlank()) {
            String[] f = line.split("\t", 3);
            ops.add(new Entry(Duration.ofMillis(Long.parseLong(f[1])).toNanos(), Op.parse(f[2])));
          }
        }
        return new Replay(seed, ops);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the trace " + trace, e);
      }
    }
  }
}
