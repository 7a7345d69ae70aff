package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ReconcileSettingsTest {
  private static final ReconcileSettings SETTINGS =
      new ReconcileSettings(Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofSeconds(30));

  private static Outcome with(GpuResult result) {
    var results = new TreeMap<GpuIndex, GpuResult>();
    results.put(new GpuIndex(0), result);
    return new Outcome(1, results, Instant.EPOCH);
  }

  @Test
  void waitsTheResyncPeriodAfterSuccess() {
    assertThat(SETTINGS.delayAfter(with(new GpuResult.InSync()), 0))
        .isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void backsOffExponentiallyAfterFailuresUpToTheMaximum() {
    Outcome failed = with(new GpuResult.Infeasible("no"));
    assertThat(SETTINGS.delayAfter(failed, 1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SETTINGS.delayAfter(failed, 2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(SETTINGS.delayAfter(failed, 5)).isEqualTo(Duration.ofSeconds(16));
    assertThat(SETTINGS.delayAfter(failed, 6)).isEqualTo(Duration.ofSeconds(30));
    assertThat(SETTINGS.delayAfter(failed, 60)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void nodeStateIsTheWorstGpuState() {
    var results = new TreeMap<GpuIndex, GpuResult>();
    results.put(new GpuIndex(0), new GpuResult.InSync());
    results.put(new GpuIndex(1), new GpuResult.Blocked(java.util.List.of("pod a"), "busy"));
    results.put(new GpuIndex(2), new GpuResult.Rebooting("reboot"));
    Outcome outcome = new Outcome(3, results, Instant.EPOCH);
    assertThat(outcome.state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(outcome.reason()).isEqualTo("GPU 1: busy");
    results.put(new GpuIndex(3), new GpuResult.Infeasible("cannot"));
    assertThat(new Outcome(3, results, Instant.EPOCH).state())
        .isEqualTo(GpuResult.State.INFEASIBLE);
    assertThat(Outcome.failed(3, "NVML gone", Instant.EPOCH).state())
        .isEqualTo(GpuResult.State.FAILED);
  }
}
