package io.migd.bench.footprint;

import io.migd.bench.footprint.FootprintNode.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Makes migd's JDK AOT caches (JEP 483/514), one per kubelet mode, as the image's build does
 * ({@code daemon/Dockerfile}): for each mode one start of {@code migd serve} on eight simulated
 * H100s in the node of that mode ({@link FootprintNode}: the test kubelet and PodResources for
 * {@code device-plugin}, the test DRA kubelet and a Kubernetes 1.36 API server for {@code dra},
 * nothing for {@code off}), up to ready, then SIGTERM; the JVM writes the cache as it exits. So a
 * pod's cache holds the classes its own surfaces load (gRPC, fabric8, the models it reads), not
 * only those of a daemon with the kubelet off.
 *
 * <p>Usage: {@code AotTrain <app dir> <cache dir> [option...]}: the app directory holds {@code
 * migd.jar} and {@code lib/} (Boot's jar-mode layout); the caches are {@code <cache
 * dir>/migd-<mode>.aot}; the options are migd's JVM options, {@code env:NAME=value} for its
 * environment ({@code -XX:AOTCache=...} among them is dropped: a training run writes a cache). The
 * JVM running this class runs migd, so the caches are made for it.
 */
public final class AotTrain {
  private AotTrain() {}

  /** Trains every mode; exits 1 naming the mode whose training failed. */
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: AotTrain <app dir> <cache dir> [option...]");
      System.exit(2);
    }
    Path app = Path.of(args[0]);
    Path caches = Path.of(args[1]);
    var options = new ArrayList<String>();
    for (String option : List.of(args).subList(2, args.length)) {
      // JAVA_TOOL_OPTIONS as one argument splits here, as the JVM splits it
      for (String each : option.trim().split("\\s+")) {
        if (!each.isEmpty() && !each.startsWith("-XX:AOTCache=")) {
          options.add(each);
        }
      }
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Files.createDirectories(caches);
    for (Mode mode : Mode.values()) {
      Path cache = cache(caches, mode);
      Path work = Files.createTempDirectory("migd-aot-" + mode.label + "-");
      try {
        train(java, app, work, options, mode, cache);
      } catch (Exception e) {
        System.err.printf(
            Locale.ROOT,
            "AotTrain: the %s training run failed: %s (its log: %s)%n",
            mode.label,
            e.getMessage(),
            work);
        System.exit(1);
      }
      System.out.printf(
          Locale.ROOT,
          "AotTrain: wrote %s (%.1f MiB)%n",
          cache,
          Files.size(cache) / (1024.0 * 1024.0));
    }
  }

  /** The cache of {@code mode} in {@code caches}: {@code migd-<mode>.aot}. */
  public static Path cache(Path caches, Mode mode) {
    return caches.resolve("migd-" + mode.label + ".aot");
  }

  /**
   * One training run on a node of {@code mode}: ready, then SIGTERM, so the cache holds what
   * start-up, a reconcile and the mode's surfaces use.
   *
   * @param work where the node's sockets and migd's log go
   */
  public static void train(
      String java, Path app, Path work, List<String> options, Mode mode, Path cache)
      throws Exception {
    Files.deleteIfExists(cache);
    var training = new ArrayList<>(options);
    training.add("-XX:AOTCacheOutput=" + cache);
    try (var node = FootprintNode.start(mode, Files.createTempDirectory(work, "train-"));
        var migd = MigdProcess.start(java, app, work, training, node, "train")) {
      migd.awaitReady();
      migd.stop();
    }
    if (!Files.isRegularFile(cache) || Files.size(cache) == 0) {
      throw new IllegalStateException("the training run made no AOT cache " + cache);
    }
  }
}
