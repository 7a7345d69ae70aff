package io.migd.bench.chaos;

import io.migd.pool.PoolSlice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A real {@code migd serve} as the DRA driver of a node of simulated GPUs, for a benchmark that
 * drives claims through it ({@code fragmentation.DaemonFragmentation}): the chaos runner's node
 * (the mock API server answering as Kubernetes 1.36, the test DRA kubelet, every GPU {@code
 * dynamic}) without faults. Before each claim is allocated, migd's publication is let settle: no
 * ResourceSlice written for {@code quiet} since the last prepare or unprepare answered (migd hands
 * its rebuilt pool to its publisher before it answers). The claim is then allocated by the test
 * allocator from the slices the API server holds, its devices listed as {@code order} says, created
 * in the API server and prepared over the kubelet's gRPC; a release unprepares and deletes it.
 */
public final class DraNode implements AutoCloseable {
  /** Every how many claims NVML and migd's checkpoint are checked against the prepared claims. */
  private static final int CHECK_EVERY = 50;

  /** How long migd may take to register and publish once it is ready. */
  private static final Duration STARTUP = Duration.ofMinutes(2);

  private final ChaosNode node;
  private final ChaosReport report;
  private final DraClaims claims;
  private final Path work;
  private final Duration quiet;
  private long lastAnswerNanos = System.nanoTime();
  private int step;

  private DraNode(ChaosNode node, ChaosReport report, DraClaims claims, Path work, Duration quiet) {
    this.node = node;
    this.report = report;
    this.claims = claims;
    this.work = work;
    this.quiet = quiet;
  }

  /**
   * Starts migd ({@code migdJar}) on {@code models} under a fresh directory of {@code parent}, and
   * waits until it is ready.
   *
   * @param order how the allocator lists each published slice's devices
   * @param quiet how long no ResourceSlice write means migd's publication settled
   */
  public static DraNode start(
      Path migdJar, Path parent, String models, UnaryOperator<PoolSlice> order, Duration quiet)
      throws Exception {
    Files.createDirectories(parent);
    Path work = Files.createTempDirectory(parent, "migd-dra-node-");
    var settings =
        ChaosSettings.parse(
            List.of(
                "--mode=dra",
                "--models=" + models,
                // no resync: a pool rebuilt by a timer would hide what prepares publish
                "--resync=86400",
                "--work=" + parent,
                "--migd-jar=" + migdJar));
    var node =
        new ChaosNode(migdJar.toAbsolutePath(), work, models, 1, OpGenerator.ALL_DYNAMIC, settings);
    var report = new ChaosReport(0);
    node.migd.start("");
    if (!node.migd.awaitReady(settings.settleTimeout())) {
      String tail = node.migd.life().tail(40);
      node.close();
      throw new IllegalStateException("migd did not become ready:\n" + tail);
    }
    long ready = System.nanoTime();
    long deadline = ready + STARTUP.toNanos();
    // migd registers with the kubelet, and publishes its first pool, a while after it is ready
    while (node.api.lastSliceWriteNanos() - ready < 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    if (node.draPlugin(STARTUP).isEmpty() || node.api.lastSliceWriteNanos() - ready < 0) {
      String tail = node.migd.life().tail(40);
      node.close();
      throw new IllegalStateException(
          "migd did not register or publish within " + STARTUP + ":\n" + tail);
    }
    return new DraNode(node, report, new DraClaims(node, report, order), work, quiet);
  }

  /**
   * Claim {@code name} for one device of MIG profile {@code profile}, allocated from the settled
   * pool and prepared; the device's name, or empty when nothing published fits.
   *
   * @throws IllegalStateException when the prepare did not succeed or an invariant broke
   */
  public Optional<String> prepare(String name, String profile) throws InterruptedException {
    awaitSettled();
    String outcome = claims.prepare(++step, "profile=" + profile, name);
    if (outcome.startsWith("does not fit")) {
      return Optional.empty();
    }
    lastAnswerNanos = System.nanoTime();
    if (!outcome.equals("prepared")) {
      throw new IllegalStateException("claim " + name + " (" + profile + "): " + outcome);
    }
    if (step % CHECK_EVERY == 0) {
      checkViolations();
    }
    return Optional.of(claims.devices(name).getFirst());
  }

  /**
   * Unprepares claim {@code name} and deletes it.
   *
   * @throws IllegalStateException when the unprepare did not succeed
   */
  public void unprepare(String name) throws InterruptedException {
    String outcome = claims.unprepare(++step, name);
    lastAnswerNanos = System.nanoTime();
    if (!outcome.equals("unprepared")) {
      throw new IllegalStateException("unprepare of claim " + name + ": " + outcome);
    }
  }

  /** The last lines of migd's log. */
  public String logTail(int lines) {
    return node.migd.life().tail(lines);
  }

  private void awaitSettled() throws InterruptedException {
    while (true) {
      long since = System.nanoTime() - Math.max(lastAnswerNanos, node.api.lastSliceWriteNanos());
      if (since >= quiet.toNanos()) {
        return;
      }
      TimeUnit.NANOSECONDS.sleep(quiet.toNanos() - since);
    }
  }

  /**
   * Checks NVML and migd's checkpoint hold the prepared claims' instances, and nothing else broke.
   */
  public void checkViolations() {
    claims.check(step);
    if (!report.violations().isEmpty()) {
      throw new IllegalStateException("invariants broken: " + report.violations());
    }
  }

  /** Stops migd and the node, and deletes the node's files. */
  @Override
  public void close() throws Exception {
    node.close();
    try (Stream<Path> files = Files.walk(work)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      System.out.println("could not delete " + work + ": " + e);
    }
  }
}
