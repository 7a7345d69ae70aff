package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.sim.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocationGraceTest {
  private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
  private static final Duration GRACE = Duration.ofMinutes(5);

  @Test
  void remembersAllocatedDevicesUntilTheGraceHasPassed() {
    var clock = new MutableClock(T0);
    var grace = new AllocationGrace(clock);
    grace.allocated("nvidia.com/gpu", List.of("GPU-a::0", "GPU-a::1"));
    clock.advance(Duration.ofMinutes(2));
    grace.allocated("nvidia.com/mig-1g.5gb", List.of("MIG-b"));

    assertThat(grace.within(GRACE))
        .containsExactly(
            Map.entry("GPU-a::0", T0),
            Map.entry("GPU-a::1", T0),
            Map.entry("MIG-b", T0.plus(Duration.ofMinutes(2))));

    clock.advance(Duration.ofMinutes(3));
    assertThat(grace.within(GRACE)).containsOnlyKeys("MIG-b");

    clock.advance(Duration.ofMinutes(2));
    assertThat(grace.within(GRACE)).isEmpty();
  }

  @Test
  void aNewAllocationOfTheSameDeviceStartsItsGraceAgain() {
    var clock = new MutableClock(T0);
    var grace = new AllocationGrace(clock);
    grace.allocated("nvidia.com/gpu", List.of("GPU-a"));
    clock.advance(Duration.ofMinutes(4));
    grace.allocated("nvidia.com/gpu", List.of("GPU-a"));
    clock.advance(Duration.ofMinutes(4));

    assertThat(grace.within(GRACE))
        .containsExactly(Map.entry("GPU-a", T0.plus(Duration.ofMinutes(4))));
  }
}
