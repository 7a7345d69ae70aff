package io.migd.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The DRA metrics ({@code migd.kubelet.mode=dra}): {@code migd_dra_prepare_duration_seconds{kind}},
 * {@code migd_dra_requests_total{operation,result}}, {@code migd_dra_prepared_devices} and {@code
 * migd_dra_free_placements{gpu,profile}} and {@code migd_dra_share_overlaps_total}. Every kind,
 * operation and result exists from the start at zero. Thread-safe: claims of one call are prepared
 * concurrently.
 */
public final class DraMetrics {
  private static final Duration[] PREPARE_BUCKETS =
      ReconcileMetrics.seconds(
          0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 45);

  /** What a claim's prepare took. */
  public enum Kind {
    /** A device that existed as it is: a whole GPU or a static slice. */
    STATIC,
    /** A MIG instance created at the allocated placement. */
    CREATED,
    /** An idle MIG instance of the same profile at the same placement, reused. */
    REUSED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Which kubelet call. */
  public enum Operation {
    PREPARE,
    UNPREPARE;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Map<Kind, Timer> prepares = new EnumMap<>(Kind.class);
  private final Map<Operation, Counter> successes = new EnumMap<>(Operation.class);
  private final Map<Operation, Counter> errors = new EnumMap<>(Operation.class);
  private final MultiGauge freePlacements;
  private final Counter shareOverlaps;

  /** Registers every series in {@code registry}; {@code preparedDevices} is read at each scrape. */
  public DraMetrics(MeterRegistry registry, IntSupplier preparedDevices) {
    for (Kind kind : Kind.values()) {
      prepares.put(
          kind,
          Timer.builder(Metric.DRA_PREPARE_DURATION_SECONDS.micrometerName())
              .description(Metric.DRA_PREPARE_DURATION_SECONDS.help())
              .tag("kind", kind.label())
              .serviceLevelObjectives(PREPARE_BUCKETS)
              .register(registry));
    }
    for (Operation operation : Operation.values()) {
      successes.put(operation, requests(registry, operation, "success"));
      errors.put(operation, requests(registry, operation, "error"));
    }
    Gauge.builder(Metric.DRA_PREPARED_DEVICES.micrometerName(), preparedDevices::getAsInt)
        .description(Metric.DRA_PREPARED_DEVICES.help())
        .register(registry);
    freePlacements =
        MultiGauge.builder(Metric.DRA_FREE_PLACEMENTS.micrometerName())
            .description(Metric.DRA_FREE_PLACEMENTS.help())
            .register(registry);
    shareOverlaps =
        Counter.builder(Metric.DRA_SHARE_OVERLAPS_TOTAL.micrometerName())
            .description(Metric.DRA_SHARE_OVERLAPS_TOTAL.help())
            .register(registry);
  }

  /** A prepare found an allocation over a shared device, or a share over a held one. */
  public void shareOverlap() {
    shareOverlaps.increment();
  }

  private static Counter requests(MeterRegistry registry, Operation operation, String result) {
    return Counter.builder(Metric.DRA_REQUESTS_TOTAL.micrometerName())
        .description(Metric.DRA_REQUESTS_TOTAL.help())
        .tag("operation", operation.label())
        .tag("result", result)
        .register(registry);
  }

  /** A claim was prepared: how long it took and what it took. */
  public void prepared(Kind kind, Duration took) {
    prepares.get(kind).record(took);
  }

  /** A claim of a kubelet call got its answer. */
  public void answered(Operation operation, boolean success) {
    (success ? successes : errors).get(operation).increment();
  }

  /**
   * The free placements now, per GPU index and profile; series of GPUs and profiles no longer given
   * are removed.
   */
  public void freePlacements(Map<Integer, Map<String, Integer>> perGpuAndProfile) {
    var rows = new ArrayList<MultiGauge.Row<?>>();
    perGpuAndProfile.forEach(
        (gpu, profiles) ->
            profiles.forEach(
                (profile, free) ->
                    rows.add(
                        MultiGauge.Row.of(
                            Tags.of("gpu", Integer.toString(gpu), "profile", profile), free))));
    freePlacements.register(rows, true);
  }
}
