package io.migd.bench.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of a chaos run ({@code --name=value}).
 *
 * @param length how long operations are generated: for a time ({@code --minutes}, {@code
 *     --seconds}), or a number of them ({@code --operations}), which a loaded machine only slows
 * @param convergeBound how soon after the faults stop the node must reach the newest intent
 *     (default twice the resync period)
 * @param settleTimeout how long a settle waits before it reports that the node did not converge
 * @param kills whether migd is killed (and restarted with NVML faults); off for a soak of one life
 * @param shares (DRA) whether the node's dynamic GPUs and its GPU without MIG also publish
 *     shareable twins ({@code shares: true}, the gates open) where the MPS supervisor runs; off for
 *     a run of exclusive claims only
 * @param work the directory under which the run makes its own work directory ({@code migd-chaos-*}:
 *     migd's logs, the node's files), and the kubelet's socket directories
 */
record ChaosSettings(
    String mode,
    long seed,
    Length length,
    double rate,
    Path trace,
    Optional<Path> replay,
    Path migdJar,
    String models,
    Duration resync,
    int settleEvery,
    Duration convergeBound,
    Duration settleTimeout,
    Duration sampleEvery,
    boolean kills,
    boolean shares,
    Path work) {
  /** Eight GPUs of mixed models: six MIG models, one 4-slice A30, one T4 without MIG. */
  static final String MODELS =
      "A100-SXM4-40GB,A100-SXM4-80GB,H100-SXM5-80GB,H200,A30,B200,H100-NVL,T4";

  private static final Set<String> NAMES =
      Set.of(
          "mode",
          "seed",
          "minutes",
          "seconds",
          "operations",
          "rate",
          "trace",
          "replay",
          "migd-jar",
          "models",
          "resync",
          "settle-every",
          "converge-bound",
          "settle-timeout",
          "sample-every",
          "kills",
          "shares",
          "work");

  static final String USAGE =
      "usage: Chaos --mode=device-plugin|dra --seed=N --minutes=M --rate=OPS_PER_S --trace=FILE"
          + " [--replay=FILE] [--migd-jar=daemon/target/migd.jar] [--models="
          + MODELS
          + "]"
          + " [--resync=5] [--settle-every=60] [--converge-bound=SECONDS] [--settle-timeout=180]"
          + " [--sample-every=60] [--kills=on|off] [--shares=on|off] [--work=/tmp] [--seconds=S or"
          + " --operations=N instead of --minutes]";

  /** How long a run generates operations. */
  sealed interface Length {
    /** Whether operation {@code step} (from 0), {@code elapsed} into the run, is generated. */
    boolean generates(int step, Duration elapsed);

    /** For a time: the operations due before it runs out (fewer when each takes longer). */
    record Timed(Duration duration) implements Length {
      @Override
      public boolean generates(int step, Duration elapsed) {
        return elapsed.compareTo(duration) < 0;
      }
    }

    /** A number of operations, however long they take: the same run on any machine. */
    record Counted(int operations) implements Length {
      public Counted {
        if (operations < 1) {
          throw new IllegalArgumentException("--operations=" + operations + ": at least 1");
        }
      }

      @Override
      public boolean generates(int step, Duration elapsed) {
        return step < operations;
      }
    }
  }

  /** Whether this run drives migd as the node's DRA driver ({@code --mode=dra}). */
  boolean dra() {
    return mode.equals("dra");
  }

  static ChaosSettings parse(List<String> args) {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        throw new IllegalArgumentException("not --name=value: " + arg + "\n" + USAGE);
      }
      String name = arg.substring(2, arg.indexOf('='));
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "\n" + USAGE);
      }
      options.put(name, arg.substring(arg.indexOf('=') + 1));
    }
    String mode = options.getOrDefault("mode", "device-plugin");
    if (!mode.equals("device-plugin") && !mode.equals("dra")) {
      throw new IllegalArgumentException("--mode=" + mode + ": device-plugin or dra\n" + USAGE);
    }
    Length length =
        options.containsKey("operations")
            ? new Length.Counted(Integer.parseInt(options.get("operations")))
            : new Length.Timed(
                options.containsKey("seconds")
                    ? Duration.ofSeconds(Long.parseLong(options.get("seconds")))
                    : Duration.ofSeconds(
                        Math.round(60 * Double.parseDouble(options.getOrDefault("minutes", "5")))));
    Duration resync = Duration.ofSeconds(Long.parseLong(options.getOrDefault("resync", "5")));
    return new ChaosSettings(
        mode,
        Long.parseLong(options.getOrDefault("seed", "1")),
        length,
        Double.parseDouble(options.getOrDefault("rate", "2")),
        Path.of(options.getOrDefault("trace", "chaos-trace.tsv")),
        Optional.ofNullable(options.get("replay")).map(Path::of),
        Path.of(options.getOrDefault("migd-jar", "daemon/target/migd.jar")),
        options.getOrDefault("models", MODELS),
        resync,
        Integer.parseInt(options.getOrDefault("settle-every", "60")),
        options.containsKey("converge-bound")
            ? Duration.ofSeconds(Long.parseLong(options.get("converge-bound")))
            : resync.multipliedBy(2),
        Duration.ofSeconds(Long.parseLong(options.getOrDefault("settle-timeout", "180"))),
        Duration.ofSeconds(Long.parseLong(options.getOrDefault("sample-every", "60"))),
        !options.getOrDefault("kills", "on").equals("off"),
        !options.getOrDefault("shares", "on").equals("off"),
        Path.of(options.getOrDefault("work", "/tmp")));
  }
}
