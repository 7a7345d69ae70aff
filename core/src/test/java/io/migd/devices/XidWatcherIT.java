package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.execute.Backoff;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * XIDs injected into the simulated driver reach the sink, with the GPU and GPU instance, also right
 * after a GPU reset re-initialised NVML.
 */
class XidWatcherIT {
  private SimulatedNvml sim;
  private Nvml nvml;
  private final List<XidWatcher.Xid> seen = new CopyOnWriteArrayList<>();
  private XidWatcher watcher;

  @BeforeEach
  void start() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-xid").toAbsolutePath());
    sim.init("A100-SXM4-40GB,T4");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    watcher =
        new XidWatcher(nvml, seen::add, new Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    watcher.start();
  }

  @AfterEach
  void stop() {
    watcher.close();
    nvml.close();
  }

  @Test
  void anXidOnAGpuInstanceAndOneOnAWholeGpuReachTheSink() {
    var a100 = nvml.deviceByIndex(0);
    nvml.setMigMode(a100, true);
    int gi =
        nvml.gpuInstanceInfo(
                nvml.createGpuInstance(
                    a100, 0, nvml.gpuInstancePossiblePlacements(a100, 0).getFirst()))
            .id();
    await().atMost(Duration.ofSeconds(30)).until(watcher::isWatching);
    sim.require("xid", "--gpu", "0", "--gi", Integer.toString(gi), "--xid", "94");
    sim.require("xid", "--gpu", "1", "--xid", "79");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(seen)
                    .containsExactly(
                        new XidWatcher.Xid(new GpuIndex(0), gi, 94),
                        new XidWatcher.Xid(new GpuIndex(1), Usage.WHOLE_GPU, 79)));
    assertThat(watcher.isAlive()).isTrue();
  }

  @Test
  void anXidRaisedRightAfterEachResetReachesTheSink() {
    await().atMost(Duration.ofSeconds(30)).until(watcher::isWatching);
    var expected = new ArrayList<XidWatcher.Xid>();
    for (int code = 79; code < 82; code++) {
      nvml.whileReleased(() -> sim.resetGpu(1));
      // no wait for the watcher: the reset returns only once XID events are registered again
      sim.require("xid", "--gpu", "1", "--xid", Integer.toString(code));
      expected.add(new XidWatcher.Xid(new GpuIndex(1), Usage.WHOLE_GPU, code));

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(seen).containsExactlyElementsOf(expected));
      assertThat(watcher.isWatching()).isTrue();
    }
  }
}
