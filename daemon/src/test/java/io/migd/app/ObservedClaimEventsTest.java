package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.migd.claims.ClaimEvents;
import io.migd.layout.GpuIndex;
import io.migd.metrics.DraMetrics;
import io.migd.metrics.Metric;
import io.migd.ownership.ClaimKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A prepare's duration lands in its kind's series; the GPUs a checkpoint write touched are observed
 * again before the pool is rebuilt, so the pool is built over the new observation.
 */
class ObservedClaimEventsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<String> calls = new ArrayList<>();
  private final ObservedClaimEvents events =
      new ObservedClaimEvents(
          new DraMetrics(registry, () -> 0),
          gpu -> calls.add("observe " + gpu.value()),
          () -> calls.add("rebuild"),
          () -> calls.add("withdraw shares"),
          (claim, sentence) -> calls.add("warn " + claim.label() + ": " + sentence));

  @Test
  void aShareOverlapIsCountedWithdrawsTheTwinsAndWarnsOnTheClaim() {
    events.shareOverlap(new ClaimKey("uid-1", "ml", "train"), "allocated over shared device x");

    assertThat(calls)
        .containsExactly(
            "withdraw shares", "warn ml/train (uid uid-1): allocated over shared device x");
    assertThat(registry.get(Metric.DRA_SHARE_OVERLAPS_TOTAL.micrometerName()).counter().count())
        .isEqualTo(1);
  }

  @Test
  void aPreparesDurationIsRecordedUnderItsKind() {
    events.prepared(
        new ClaimKey("uid-1", "ml", "train"),
        ClaimEvents.PrepareKind.CREATED,
        Duration.ofMillis(250));

    var created =
        registry
            .get(Metric.DRA_PREPARE_DURATION_SECONDS.micrometerName())
            .tag("kind", "created")
            .timer();
    assertThat(created.count()).isEqualTo(1);
    assertThat(created.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250);
    assertThat(
            registry
                .get(Metric.DRA_PREPARE_DURATION_SECONDS.micrometerName())
                .tag("kind", "static")
                .timer()
                .count())
        .isZero();
  }

  @Test
  void touchedGpusAreObservedAgainThenThePoolIsRebuiltOnce() {
    var gpus = new LinkedHashSet<GpuIndex>();
    gpus.add(new GpuIndex(2));
    gpus.add(new GpuIndex(0));

    events.touched(gpus);

    assertThat(calls).containsExactly("observe 2", "observe 0", "rebuild");
  }
}
