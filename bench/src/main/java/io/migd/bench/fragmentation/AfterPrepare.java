package io.migd.bench.fragmentation;

import io.migd.bench.fragmentation.MigdPool.Held;
import io.migd.pool.GpuFacts;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * migd's order as the daemon publishes it while a prepare's pool is rebuilt before its completed
 * record is written (issue 29): from a prepare until the next unprepare, the claim last prepared
 * counts as its started record, a whole GPU, so its GPU publishes no free placement and its devices
 * fall back to start-descending order. An in-process model of that bug, to tell whether it alone
 * explains what {@link DaemonFragmentation} measures.
 */
final class AfterPrepare implements Fragmentation.Node {
  private final List<GpuFacts> gpus;
  private final TestAllocator allocator = new TestAllocator();
  private long generation;
  // the claim whose prepare published the pool last; null once an unprepare published it again
  private String lastPrepared;

  AfterPrepare(List<GpuFacts> gpus) {
    this.gpus = List.copyOf(gpus);
  }

  @Override
  public Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held) {
    var last = held.stream().filter(h -> ("claim-" + h.giId()).equals(lastPrepared)).findFirst();
    var content =
        last.isPresent()
            ? MigdPool.afterPrepare(
                Fragmentation.DRIVER, Fragmentation.NODE, gpus, held, last.get())
            : MigdPool.build(Fragmentation.DRIVER, Fragmentation.NODE, gpus, held);
    Optional<String> device =
        allocator
            .allocate(
                TestClaim.of(uid, DeviceRequest.profile("mig", profile.name())),
                PublishedSlice.of(content, ++generation))
            .map(allocated -> TestAllocator.deviceNames(allocated).getFirst());
    if (device.isPresent()) {
      lastPrepared = uid;
    }
    return device;
  }

  @Override
  public void release(String uid) {
    allocator.release(uid);
    lastPrepared = null;
  }
}
