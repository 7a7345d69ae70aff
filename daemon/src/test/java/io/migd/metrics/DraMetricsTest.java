package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DraMetricsTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @Test
  void everySeriesExistsAtZeroAndCountsWhatHappened() {
    var metrics = new DraMetrics(registry, () -> 3);
    assertThat(registry.scrape())
        .contains("migd_dra_requests_total{operation=\"prepare\",result=\"error\"} 0.0")
        .contains("migd_dra_prepare_duration_seconds_count{kind=\"reused\"} 0")
        .contains("migd_dra_prepared_devices 3.0");

    metrics.prepared(DraMetrics.Kind.CREATED, Duration.ofMillis(1500));
    metrics.answered(DraMetrics.Operation.PREPARE, true);
    metrics.answered(DraMetrics.Operation.UNPREPARE, false);
    metrics.freePlacements(Map.of(0, Map.of("1g.10gb", 6, "7g.80gb", 0)));

    assertThat(registry.scrape())
        .contains("migd_dra_prepare_duration_seconds_count{kind=\"created\"} 1")
        .contains("migd_dra_requests_total{operation=\"prepare\",result=\"success\"} 1.0")
        .contains("migd_dra_requests_total{operation=\"unprepare\",result=\"error\"} 1.0")
        .contains("migd_dra_free_placements{gpu=\"0\",profile=\"1g.10gb\"} 6.0")
        .contains("migd_dra_free_placements{gpu=\"0\",profile=\"7g.80gb\"} 0.0");

    metrics.freePlacements(Map.of(0, Map.of("1g.10gb", 5)));
    assertThat(registry.scrape())
        .contains("migd_dra_free_placements{gpu=\"0\",profile=\"1g.10gb\"} 5.0")
        .doesNotContain("profile=\"7g.80gb\"");
  }
}
