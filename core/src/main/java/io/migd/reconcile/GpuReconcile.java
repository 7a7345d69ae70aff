package io.migd.reconcile;

import io.migd.execute.Execution;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import io.migd.plan.Plan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GPU's part of a reconcile: decide, execute the plan, observe the GPU again and compare. A
 * pending MIG mode goes to {@link ModeChange}. An error while deciding propagates (the {@link
 * Reconciler} turns it into this GPU's {@code failed}); once decided, any error, NVML's or migd's
 * own, ends this GPU {@code failed} with the decision kept, and the other GPUs go on.
 */
final class GpuReconcile {
  private static final Logger log = LoggerFactory.getLogger(GpuReconcile.class);

  private final NodeObserver observer;
  private final NodeDecider decider;
  private final UsageSource usageSource;
  private final Executor executor;
  private final ProgressListener listener;
  private final ModeChange modeChange;
  private final StaticDeviceGuard guard;
  private final Clock clock;

  GpuReconcile(
      NodeObserver observer,
      NodeDecider decider,
      UsageSource usageSource,
      Executor executor,
      ProgressListener listener,
      ModeChange modeChange,
      StaticDeviceGuard guard,
      Clock clock) {
    this.observer = observer;
    this.decider = decider;
    this.usageSource = usageSource;
    this.executor = executor;
    this.listener = listener;
    this.modeChange = modeChange;
    this.guard = guard;
    this.clock = clock;
  }

  /** What the GPU needs, without changing anything: the one decision path's answer. */
  Decision decide(Resolution resolution, GpuIndex gpu, ObservedNode observed, Usage usage) {
    return decider.decide(resolution, gpu, observed, usage);
  }

  /**
   * Decides and executes for one GPU, then verifies; may reset it once for a pending mode.
   *
   * @throws RuntimeException only while deciding, before anything on the GPU is touched
   */
  Outcome.Gpu reconcile(
      Desired desired,
      Resolution resolution,
      GpuIndex gpu,
      ObservedNode observed,
      Usage usage,
      boolean mayReset) {
    Decision decision = decide(resolution, gpu, observed, usage);
    GpuResult result;
    try {
      result = carryOut(desired, resolution, decision, gpu, observed, mayReset);
    } catch (NvmlException e) {
      result = GpuResult.Failed.nvml("reconciling GPU " + gpu, e);
    } catch (RuntimeException e) {
      log.error("gpu={} reconcile failed, a bug in migd; the other GPUs go on", gpu, e);
      result = GpuResult.Failed.unexpected("reconciling GPU " + gpu, e);
    }
    return new Outcome.Gpu(resolution, decision, result, decider.turningStatic(gpu, resolution));
  }

  private GpuResult carryOut(
      Desired desired,
      Resolution resolution,
      Decision decision,
      GpuIndex gpu,
      ObservedNode observed,
      boolean mayReset) {
    return switch (decision) {
      case Decision.InSync(),
          Decision.Infeasible _,
          Decision.Blocked _,
          Decision.Unmanaged(),
          Decision.Failed _ ->
          GpuResult.of(decision);
      case Decision.Change(var plan) -> {
        listener.planMade(gpu, plan);
        // listeners have withdrawn what the plan destroys: reading usage again catches a slice
        // handed out between the first read and the withdrawal
        Decision recheck = decide(resolution, gpu, observed, usageOf(observed));
        if (!(recheck instanceof Decision.Change(var again) && again.equals(plan))) {
          listener.planAbandoned(gpu, plan);
          yield recheck instanceof Decision.Change
              ? new GpuResult.Applying(
                  "what GPU "
                      + gpu
                      + " holds in use changed while its plan was made; it is planned again")
              : GpuResult.of(recheck);
        }
        var held =
            allocatedWhileDynamic(gpu, resolution).or(() -> claimsHolding(gpu, observed, plan));
        if (held.isPresent()) {
          listener.planAbandoned(gpu, plan);
          yield held.get();
        }
        Instant start = clock.instant();
        Execution execution = executor.execute(gpu, plan);
        yield switch (execution) {
          case Execution.Completed() -> verify(resolution, gpu, plan, start);
          case Execution.StepFailed(var step, var cause) ->
              new GpuResult.Failed(
                  step, cause.code(), "step " + step + " failed: " + cause.getMessage());
          case Execution.ModeChangePending(var step, var activation) ->
              modeChange.pending(
                  gpu,
                  step,
                  activation,
                  mayReset,
                  after ->
                      reconcile(desired, resolution, gpu, after, usageOf(after), false).result());
        };
      }
    };
  }

  /**
   * Blocked when the GPU is static now and a claim is allocated one of the dynamic devices the pool
   * still publishes for it (DRA mode, a GPU turning from dynamic to static): prepared, that claim
   * would need an instance the plan may take or destroy.
   */
  private Optional<GpuResult> allocatedWhileDynamic(GpuIndex gpu, Resolution resolution) {
    if (!(resolution instanceof Resolution.Target(var target, _)) || target.dynamic()) {
      return Optional.empty();
    }
    return blockedByClaims(
        gpu,
        () -> guard.claimsOfDynamicDevices(gpu),
        " turns from dynamic to static, but the claims of its dynamic devices could not be checked",
        claims ->
            " turns from dynamic to static: its unprepared devices are withdrawn, and its layout"
                + " waits until no claim is allocated or prepared on it (claim "
                + String.join(", claim ", claims)
                + ")");
  }

  /**
   * Blocked when a claim's allocation names a static device the plan removes (DRA mode); the plan's
   * listeners have withdrawn those devices, so no later allocation can name them.
   */
  private Optional<GpuResult> claimsHolding(GpuIndex gpu, ObservedNode observed, Plan plan) {
    var gpuBefore = observed.gpus().stream().filter(g -> g.index().equals(gpu)).findFirst();
    if (gpuBefore.isEmpty()) {
      return Optional.empty();
    }
    List<String> removed = RemovedDevices.of(gpuBefore.get(), plan);
    if (removed.isEmpty()) {
      return Optional.empty();
    }
    return blockedByClaims(
        gpu,
        () -> guard.claimsHolding(removed),
        ": its plan removes "
            + String.join(", ", removed)
            + ", but the claims could not be checked",
        claims ->
            ": claim "
                + String.join(", claim ", claims)
                + " is allocated a device the plan removes ("
                + String.join(", ", removed)
                + "); the plan waits until no claim names it");
  }

  /**
   * Blocked, naming the claims the guard answers (none: not blocked), or when the guard cannot
   * answer; {@code unchecked} and {@code holding} complete the sentence after {@code GPU <index>}.
   */
  private static Optional<GpuResult> blockedByClaims(
      GpuIndex gpu,
      Supplier<List<String>> ask,
      String unchecked,
      Function<List<String>, String> holding) {
    List<String> claims;
    try {
      claims = ask.get();
    } catch (RuntimeException e) {
      log.warn("gpu={} cannot check the claims: {}", gpu, e.getMessage());
      return Optional.of(
          new GpuResult.Blocked(
              List.of(), "GPU " + gpu + unchecked + " (" + e.getMessage() + "); the plan waits"));
    }
    if (claims.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new GpuResult.Blocked(
            claims.stream().map(c -> "claim " + c).toList(), "GPU " + gpu + holding.apply(claims)));
  }

  private GpuResult verify(Resolution resolution, GpuIndex gpu, Plan plan, Instant start) {
    ObservedNode after;
    try {
      after = new ObservedNode(List.of(observer.observe(gpu)));
    } catch (NvmlException e) {
      return GpuResult.Failed.nvml("observing GPU " + gpu + " after its plan ran", e);
    }
    Decision again = decide(resolution, gpu, after, usageOf(after));
    if (again instanceof Decision.InSync) {
      return new GpuResult.Applied(plan, Duration.between(start, clock.instant()));
    }
    return new GpuResult.Applying(
        "the plan ran but GPU " + gpu + " does not match yet (" + again + "); migd goes on");
  }

  private Usage usageOf(ObservedNode observed) {
    return usageSource.usage(observed);
  }
}
