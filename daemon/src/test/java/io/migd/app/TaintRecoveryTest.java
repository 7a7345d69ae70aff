package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.devices.DraTaints;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.sim.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A taint goes after the recovery period while NVML answers, and only then is the pool rebuilt. */
class TaintRecoveryTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final Duration PERIOD = Duration.ofMinutes(5);

  @Test
  void theTaintGoesOnceThePeriodPassedAndNvmlAnswersAndThePoolIsRebuiltThen() {
    var clock = new MutableClock(Instant.parse("2026-11-29T08:00:00Z"));
    var taints = new DraTaints();
    taints.onXid(GPU0, Usage.WHOLE_GPU, 79, clock.instant());
    var answers = new AtomicBoolean(true);
    var rebuilds = new AtomicInteger();
    var recovery =
        new TaintRecovery(taints, PERIOD, gpu -> answers.get(), rebuilds::incrementAndGet, clock);

    clock.advance(Duration.ofMinutes(4));
    recovery.run();
    assertThat(taints.marks(Set.of()).marks()).as("within the period").hasSize(1);
    assertThat(rebuilds).hasValue(0);

    clock.advance(Duration.ofMinutes(1));
    answers.set(false);
    recovery.run();
    assertThat(taints.marks(Set.of()).marks()).as("NVML does not answer for the GPU").hasSize(1);
    assertThat(rebuilds).hasValue(0);

    answers.set(true);
    recovery.run();
    assertThat(taints.marks(Set.of()).marks()).isEmpty();
    assertThat(rebuilds).hasValue(1);

    recovery.run();
    assertThat(rebuilds).as("nothing left to recover").hasValue(1);
  }
}
