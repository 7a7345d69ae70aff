package io.migd.reconcile;

import io.migd.execute.Execution;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import io.migd.plan.Plan;
import io.migd.plan.Planner;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GpuModel;
import io.migd.reconcile.Reconciler.Resolution;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One GPU's part of a reconcile: decide, execute the plan, observe the GPU again and compare. A
 * pending MIG mode goes to {@link ModeChange}. NVML errors propagate; the {@link Reconciler} turns
 * them into this GPU's {@code failed} and goes on with the others.
 */
final class GpuReconcile {
  private final NodeObserver observer;
  private final ModelSource models;
  private final UsageSource usageSource;
  private final Executor executor;
  private final ProgressListener listener;
  private final ModeChange modeChange;
  private final Clock clock;

  GpuReconcile(
      NodeObserver observer,
      ModelSource models,
      UsageSource usageSource,
      Executor executor,
      ProgressListener listener,
      ModeChange modeChange,
      Clock clock) {
    this.observer = observer;
    this.models = models;
    this.usageSource = usageSource;
    this.executor = executor;
    this.listener = listener;
    this.modeChange = modeChange;
    this.clock = clock;
  }

  /** What the GPU needs, without changing anything. */
  Decision decide(Resolution resolution, GpuIndex gpu, ObservedNode observed, Usage usage) {
    return switch (resolution) {
      case Resolution.Unreachable(var reason) -> new Decision.Infeasible(reason);
      case Resolution.Target(var target) -> {
        ObservedGpu now = gpuOf(observed, gpu);
        Optional<GpuModel> model = models.modelOf(now);
        if (model.isEmpty() && target.migEnabled()) {
          yield new Decision.Infeasible(
              "GPU "
                  + gpu
                  + " ("
                  + now.name()
                  + ", PCI id "
                  + now.pci().deviceIdHex()
                  + ") is not a model migd knows");
        }
        yield Planner.decide(target, now, usage, model.orElseGet(() -> nonMigModel(now)));
      }
    };
  }

  /** Decides and executes for one GPU, then verifies; may reset it once for a pending mode. */
  GpuResult reconcile(
      Desired desired,
      Resolution resolution,
      GpuIndex gpu,
      ObservedNode observed,
      Usage usage,
      boolean mayReset) {
    Decision decision = decide(resolution, gpu, observed, usage);
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
                  after -> reconcile(desired, resolution, gpu, after, usageOf(after), false));
        };
      }
    };
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

  /** A catalogue entry for a GPU migd does not know, enough to plan "MIG off". */
  private static GpuModel nonMigModel(ObservedGpu gpu) {
    return new GpuModel(
        gpu.name(),
        gpu.name(),
        gpu.pci().deviceId(),
        -1,
        new ComputeCapability(0, 0),
        Math.max(1, gpu.memoryMiB()),
        1,
        false,
        0,
        List.of());
  }

  private static ObservedGpu gpuOf(ObservedNode node, GpuIndex gpu) {
    return node.gpus().stream()
        .filter(g -> g.index().equals(gpu))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("GPU " + gpu + " vanished"));
  }
}
