package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.migd.dra.DeviceHealth;
import io.migd.dra.HealthPublisher;
import io.migd.layout.GpuIndex;
import io.migd.metrics.DraMetrics;
import io.migd.metrics.Metric;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.BuiltPool;
import io.migd.pool.FreePlacements;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolSurface;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each built pool reaches the ResourceSlices, the free-placement metric and the kubelet's health.
 */
class PoolPublicationsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final DraMetrics metrics = new DraMetrics(registry, () -> 0);

  private record Published(long number, PoolContent content) {}

  private static BuiltPool pool(List<FreePlacements> free) {
    return new BuiltPool(PoolContent.empty("gpu.nvidia.com", "node-a"), new TreeMap<>(), free);
  }

  private double free(String gpu, String profile) {
    return registry
        .get(Metric.DRA_FREE_PLACEMENTS.micrometerName())
        .tags("gpu", gpu, "profile", profile)
        .gauge()
        .value();
  }

  @Test
  void aPublicationGoesToTheSlicesUnderItsNumberAndToTheMetricAndTheHealth() throws Exception {
    var slices = new ArrayList<Published>();
    try (var health = new HealthPublisher(HealthPublisher.RESEND)) {
      // what the kubelet heard before: a device of a claim since unprepared
      health.publish(List.of(DeviceHealth.healthy("node-a", "gpu-0-mig-1g10gb-19-0")));
      var publications =
          new PoolPublications(
              (number, content) -> slices.add(new Published(number, content)),
              metrics,
              health,
              ClaimedDevices.NONE);

      BuiltPool first =
          pool(
              List.of(
                  new FreePlacements(new GpuIndex(0), "1g.10gb", 7),
                  new FreePlacements(new GpuIndex(1), "3g.40gb", 2)));
      publications.accept(new PoolSurface.Publication(4, first));

      assertThat(slices).containsExactly(new Published(4, first.content()));
      assertThat(free("0", "1g.10gb")).isEqualTo(7);
      assertThat(free("1", "3g.40gb")).isEqualTo(2);
      assertThat(health.current()).as("no claim is prepared now").isEmpty();

      publications.accept(
          new PoolSurface.Publication(
              5, pool(List.of(new FreePlacements(new GpuIndex(0), "1g.10gb", 6)))));

      assertThat(slices).extracting(Published::number).containsExactly(4L, 5L);
      assertThat(free("0", "1g.10gb")).isEqualTo(6);
      assertThat(
              registry.find(Metric.DRA_FREE_PLACEMENTS.micrometerName()).tags("gpu", "1").gauges())
          .as("a GPU the newest pool has no free placements for drops its series")
          .isEmpty();
    }
  }
}
