package io.migd.bench.chaos;

import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.PublishedSlice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The chaos node's DRA pool as the API server holds it: its newest generation, read only when
 * whole, and a violation when it breaks the API's rules.
 */
final class DraPoolReader {
  private final ChaosNode node;
  private final ChaosReport report;

  DraPoolReader(ChaosNode node, ChaosReport report) {
    this.node = node;
    this.report = report;
  }

  /** The pool, waiting up to {@code patience} for it to be readable and whole. */
  Optional<List<PublishedSlice>> read(int step, Duration patience) throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    Optional<List<PublishedSlice>> pool = read(step);
    while (pool.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      pool = read(step);
    }
    return pool;
  }

  /** The pool now; empty while it is not readable, not whole, or not valid. */
  Optional<List<PublishedSlice>> read(int step) {
    Optional<PublishedPool> read;
    try {
      read = new ResourceSliceReader(node.client).read(ChaosNode.DRIVER, ChaosNode.NODE);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (read.isEmpty() || !read.get().complete()) {
      return Optional.empty();
    }
    PublishedPool pool = read.get();
    var slices =
        pool.content().slices().stream()
            .map(
                s ->
                    new PublishedSlice(
                        ChaosNode.DRIVER,
                        ChaosNode.NODE,
                        s,
                        pool.generation(),
                        (int) pool.resourceSliceCount()))
            .toList();
    List<String> problems = PoolValidator.problems(slices);
    if (!problems.isEmpty()) {
      report.violation(step, "the published pool is valid", problems.toString());
      return Optional.empty();
    }
    return Optional.of(slices);
  }

  /**
   * Why nothing in {@code pool} fits {@code wanted}, roughly: no such device published, every one
   * tainted, or every one taken or blocked by counters.
   */
  static String whyNothingFits(DeviceRequest wanted, List<PublishedSlice> pool) {
    var matching = new ArrayList<PoolDevice>();
    for (PublishedSlice slice : pool) {
      if (slice.slice().content() instanceof PoolSlice.Devices(var _, var devices)) {
        devices.stream().filter(d -> wanted.matches(ChaosNode.DRIVER, d)).forEach(matching::add);
      }
    }
    if (matching.isEmpty()) {
      return " (none published)";
    }
    return matching.stream().allMatch(d -> !d.taints().isEmpty())
        ? " (every one tainted)"
        : " (taken or counters used)";
  }
}
