package io.migd.bench.chaos;

import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A real {@code migd serve} as the DRA driver of a node of simulated GPUs, for a benchmark that
 * drives claims through it ({@code fragmentation.DaemonFragmentation}): the chaos runner's node
 * (the mock API server answering as Kubernetes 1.36, the test DRA kubelet, every GPU {@code
 * dynamic}) without faults and without resyncs. A claim is allocated by the test allocator from the
 * slices the API server holds, its devices listed as {@code order} says, created in the API server
 * and prepared over the kubelet's gRPC; a release unprepares and deletes it. After each prepare and
 * unprepare the runner waits until the API server holds, complete, the pool migd rebuilt for it
 * (the device published with its MIG UUID after a prepare, without after an unprepare): migd hands
 * that pool to its publisher before it answers, and nothing else changes the pool, so the next
 * claim is allocated from what migd published last.
 */
public final class DraNode implements AutoCloseable {
  /** Every how many claims NVML and migd's checkpoint are checked against the prepared claims. */
  private static final int CHECK_EVERY = 50;

  /**
   * How long migd may take to become ready (then to register and publish), or to publish a pool: a
   * 2-core machine shared with builds has taken over 3 minutes to start it.
   */
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  private final ChaosNode node;
  private final ChaosReport report;
  private final DraClaims claims;
  private final Path work;
  private final Thread orphans;
  private int step;

  private DraNode(ChaosNode node, ChaosReport report, DraClaims claims, Path work) {
    this.node = node;
    this.report = report;
    this.claims = claims;
    this.work = work;
    // a runner ended by a signal takes its migd along (close does not run)
    this.orphans = Thread.ofPlatform().unstarted(node.migd::kill);
    Runtime.getRuntime().addShutdownHook(orphans);
  }

  /**
   * Starts migd ({@code migdJar}) on {@code models} under a fresh directory of {@code parent}, and
   * waits until it is registered with the kubelet and has published its pool.
   *
   * @param order how the allocator lists each published slice's devices
   */
  public static DraNode start(
      Path migdJar, Path parent, String models, UnaryOperator<PoolSlice> order) throws Exception {
    Files.createDirectories(parent);
    Path work = Files.createTempDirectory(parent, "migd-dra-node-");
    var settings =
        ChaosSettings.parse(
            List.of(
                "--mode=dra",
                "--models=" + models,
                // no resync: a pool rebuilt by a timer would hide what prepares publish
                "--resync=86400",
                // exclusive claims only: twins would change what the allocator picks
                "--shares=off",
                "--settle-timeout=" + PATIENCE.toSeconds(),
                "--work=" + parent,
                "--migd-jar=" + migdJar));
    var node =
        new ChaosNode(migdJar.toAbsolutePath(), work, models, 1, OpGenerator.ALL_DYNAMIC, settings);
    var report = new ChaosReport(0);
    var started = new DraNode(node, report, new DraClaims(node, report, order), work);
    node.migd.start("");
    if (!node.migd.awaitReady(settings.settleTimeout())
        || node.draPlugin(PATIENCE).isEmpty()
        || !started.awaitPublished(p -> true)) {
      String tail = node.migd.life().tail(40);
      started.close();
      throw new IllegalStateException(
          "migd did not start, register and publish within " + PATIENCE + ":\n" + tail);
    }
    return started;
  }

  /**
   * Claim {@code name} for one device of MIG profile {@code profile}, allocated from the pool migd
   * published last and prepared; the device's name, or empty when nothing published fits.
   *
   * @throws IllegalStateException when the prepare did not succeed, its pool was not published, or
   *     an invariant broke
   */
  public Optional<String> prepare(String name, String profile) throws InterruptedException {
    String outcome = claims.prepare(++step, "profile=" + profile, name);
    if (outcome.startsWith("does not fit")) {
      return Optional.empty();
    }
    if (!outcome.equals("prepared")) {
      throw new IllegalStateException("claim " + name + " (" + profile + "): " + outcome);
    }
    String device = claims.devices(name).getFirst();
    if (!awaitPublished(pool -> hasUuid(pool, device))) {
      throw new IllegalStateException(
          "the pool after the prepare of " + device + " was not published within " + PATIENCE);
    }
    if (step % CHECK_EVERY == 0) {
      checkViolations();
    }
    return Optional.of(device);
  }

  /**
   * Unprepares claim {@code name} and deletes it.
   *
   * @throws IllegalStateException when the unprepare did not succeed or its pool was not published
   */
  public void unprepare(String name) throws InterruptedException {
    String device = claims.devices(name).getFirst();
    String outcome = claims.unprepare(++step, name);
    if (!outcome.equals("unprepared")) {
      throw new IllegalStateException("unprepare of claim " + name + ": " + outcome);
    }
    if (!awaitPublished(pool -> !hasUuid(pool, device))) {
      throw new IllegalStateException(
          "the pool after the unprepare of " + device + " was not published within " + PATIENCE);
    }
  }

  /** Checks NVML and migd's checkpoint hold the prepared claims' instances; nothing else broke. */
  public void checkViolations() {
    claims.check(step);
    if (!report.violations().isEmpty()) {
      throw new IllegalStateException("invariants broken: " + report.violations());
    }
  }

  /** The last lines of migd's log. */
  public String logTail(int lines) {
    return node.migd.life().tail(lines);
  }

  private interface PoolCheck {
    boolean holds(PublishedPool pool);
  }

  /** Waits until the pool's newest generation is complete and {@code check} holds of it. */
  private boolean awaitPublished(PoolCheck check) throws InterruptedException {
    var reader = new ResourceSliceReader(node.client);
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<PublishedPool> pool = reader.read(ChaosNode.DRIVER, ChaosNode.NODE);
      if (pool.isPresent() && pool.get().complete() && check.holds(pool.get())) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /** Whether {@code device} is published with a MIG UUID (a prepared instance's). */
  private static boolean hasUuid(PublishedPool pool, String device) {
    return pool.content().slices().stream()
        .flatMap(
            s ->
                s.content() instanceof PoolSlice.Devices(var _, var devices)
                    ? devices.stream()
                    : Stream.<PoolDevice>empty())
        .anyMatch(d -> d.name().equals(device) && d.attributes().containsKey("uuid"));
  }

  /** Stops migd and the node, and deletes the node's files. */
  @Override
  public void close() throws Exception {
    node.close();
    Runtime.getRuntime().removeShutdownHook(orphans);
    try (Stream<Path> files = Files.walk(work)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      System.out.println("could not delete " + work + ": " + e);
    }
  }
}
