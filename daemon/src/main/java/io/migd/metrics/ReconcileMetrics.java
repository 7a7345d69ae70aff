package io.migd.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Step;
import io.migd.plan.StepAction;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import io.migd.reconcile.RebootPolicy;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The reconcile metrics: {@code migd_reconcile_total{outcome}}, {@code
 * migd_reconcile_duration_seconds}, {@code migd_layout_in_sync} (from each {@link Outcome}), {@code
 * migd_step_duration_seconds{action}} and {@code migd_instance_creations_total} / {@code
 * migd_instance_destructions_total{kind}} (from the steps that ran to their end), and the reset and
 * reboot times. Every series exists from the start at zero, so rates and alerts work before the
 * first change. Thread-safe: plans of several GPUs run at the same time, each timed on its own.
 */
public final class ReconcileMetrics implements OutcomeListener, ProgressListener {
  private static final Duration[] RECONCILE_BUCKETS =
      seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300);
  private static final Duration[] STEP_BUCKETS =
      seconds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300);

  private final Map<GpuResult.State, Counter> reconciles = new EnumMap<>(GpuResult.State.class);
  private final Timer reconcileDuration;
  private final Map<StepAction, Timer> steps = new EnumMap<>(StepAction.class);
  private final Map<Kind, Counter> created = new EnumMap<>(Kind.class);
  private final Map<Kind, Counter> destroyed = new EnumMap<>(Kind.class);
  private final Map<GpuIndex, Long> stepStarts = new ConcurrentHashMap<>();
  private volatile long reconcileStart;
  private volatile boolean inSync;

  /** The {@code kind} label of the instance counters. */
  enum Kind {
    GPU("gpu"),
    COMPUTE("compute");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  /** Registers every series in {@code registry}. */
  public ReconcileMetrics(MeterRegistry registry) {
    for (GpuResult.State state : GpuResult.State.values()) {
      // unmanaged is a GPU's result only, never a node's
      if (state != GpuResult.State.UNMANAGED) {
        reconciles.put(
            state,
            Counter.builder(Metric.RECONCILE_TOTAL.micrometerName())
                .description(Metric.RECONCILE_TOTAL.help())
                .tag("outcome", state.wireName())
                .register(registry));
      }
    }
    reconcileDuration =
        Timer.builder(Metric.RECONCILE_DURATION_SECONDS.micrometerName())
            .description(Metric.RECONCILE_DURATION_SECONDS.help())
            .serviceLevelObjectives(RECONCILE_BUCKETS)
            .register(registry);
    for (StepAction action : StepAction.values()) {
      steps.put(
          action,
          Timer.builder(Metric.STEP_DURATION_SECONDS.micrometerName())
              .description(Metric.STEP_DURATION_SECONDS.help())
              .tag("action", action.label())
              .serviceLevelObjectives(STEP_BUCKETS)
              .register(registry));
    }
    for (Kind kind : Kind.values()) {
      created.put(
          kind,
          Counter.builder(Metric.INSTANCE_CREATIONS_TOTAL.micrometerName())
              .description(Metric.INSTANCE_CREATIONS_TOTAL.help())
              .tag("kind", kind.label)
              .register(registry));
      destroyed.put(
          kind,
          Counter.builder(Metric.INSTANCE_DESTRUCTIONS_TOTAL.micrometerName())
              .description(Metric.INSTANCE_DESTRUCTIONS_TOTAL.help())
              .tag("kind", kind.label)
              .register(registry));
    }
    Gauge.builder(Metric.LAYOUT_IN_SYNC.micrometerName(), this, m -> m.inSync ? 1 : 0)
        .description(Metric.LAYOUT_IN_SYNC.help())
        .register(registry);
  }

  /**
   * The intent source of the reconcile loop, read once at the start of every reconcile: the start
   * of {@code migd_reconcile_duration_seconds}.
   */
  public Supplier<Desired> timing(Supplier<Desired> intent) {
    return () -> {
      reconcileStart = System.nanoTime();
      return intent.get();
    };
  }

  /** {@code reset}, timed as {@code resetGpu} when it resets the GPU. */
  public GpuReset timing(GpuReset reset) {
    return gpu -> {
      long start = System.nanoTime();
      GpuReset.Result result = reset.reset(gpu);
      if (result instanceof GpuReset.Result.Done) {
        record(StepAction.RESET_GPU, start);
      }
      return result;
    };
  }

  /** {@code reboot}, timed as {@code reboot} (until the command returned) when it ran. */
  public RebootPolicy timing(RebootPolicy reboot) {
    return new RebootPolicy() {
      @Override
      public boolean enabled() {
        return reboot.enabled();
      }

      @Override
      public Request requestReboot(long generation) {
        long start = System.nanoTime();
        Request request = reboot.requestReboot(generation);
        if (request instanceof Request.Started) {
          record(StepAction.REBOOT, start);
        }
        return request;
      }
    };
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    long start = reconcileStart;
    if (start != 0) {
      reconcileDuration.record(Duration.ofNanos(System.nanoTime() - start));
    }
    reconciles.get(outcome.state()).increment();
    inSync = outcome.succeeded();
  }

  @Override
  public void stepStarted(Step step) {
    stepStarts.put(step.gpu(), System.nanoTime());
  }

  @Override
  public void stepDone(Step step) {
    Long start = stepStarts.remove(step.gpu());
    if (start != null) {
      record(StepAction.of(step), start);
    }
    switch (step) {
      case Step.CreateGpuInstance _ -> created.get(Kind.GPU).increment();
      case Step.CreateComputeInstance _ -> created.get(Kind.COMPUTE).increment();
      case Step.DestroyGpuInstance _ -> destroyed.get(Kind.GPU).increment();
      case Step.DestroyComputeInstance _ -> destroyed.get(Kind.COMPUTE).increment();
      case Step.EnableMig _, Step.DisableMig _ -> {}
    }
  }

  @Override
  public void stepFailed(Step step, NvmlException cause) {
    stepStarts.remove(step.gpu());
  }

  private void record(StepAction action, long startNanos) {
    steps.get(action).record(Duration.ofNanos(System.nanoTime() - startNanos));
  }

  static Duration[] seconds(double... bounds) {
    var durations = new Duration[bounds.length];
    for (int i = 0; i < bounds.length; i++) {
      durations[i] = Duration.ofNanos(Math.round(bounds[i] * 1e9));
    }
    return durations;
  }
}
