package io.migd.execute;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.migd.layout.GpuIndex;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.plan.Step.CreateComputeInstance;
import io.migd.plan.Step.CreateGpuInstance;
import io.migd.plan.Step.DestroyComputeInstance;
import io.migd.plan.Step.DestroyGpuInstance;
import io.migd.plan.Step.DisableMig;
import io.migd.plan.Step.EnableMig;
import io.migd.profiles.Placement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only code that turns {@link Step}s into NVML calls. It decides nothing: it runs the steps in
 * order, stops at the first failure, and undoes what this run half-made (a GPU instance created now
 * whose compute instances could not all be created), so nothing is left half-made.
 */
public final class Executor {
  private static final Logger log = LoggerFactory.getLogger(Executor.class);

  private final Nvml nvml;
  private final ProgressListener listener;
  private final RetryPolicy<Optional<NvmlReturn>> transientRetry;

  /** An executor over an NVML session. */
  public Executor(Nvml nvml, ProgressListener listener) {
    this(nvml, listener, new Backoff(Duration.ofMillis(100), Duration.ofMillis(800)), 3);
  }

  /**
   * An executor that retries a step failing with a transient NVML error ({@link
   * NvmlReturn#isTransient()}) up to {@code retries} times, waiting {@code backoff} between tries.
   * A failed NVML call has no effect, so retrying it is safe.
   */
  public Executor(Nvml nvml, ProgressListener listener, Backoff backoff, int retries) {
    this.nvml = nvml;
    this.listener = listener;
    this.transientRetry =
        backoff
            .<Optional<NvmlReturn>>retryPolicy(retries)
            .handleIf(e -> e instanceof NvmlException n && n.code().isTransient())
            .onRetry(
                event ->
                    log.info(
                        "retrying after a transient NVML error attempt={} error=\"{}\"",
                        event.getAttemptCount(),
                        event.getLastException().getMessage()))
            .build();
  }

  /**
   * Runs one GPU's plan. The whole plan is one NVML sequence: a reset of another GPU waits for it
   * to end, because the handles it holds would be stale after NVML is initialised again.
   */
  public Execution execute(GpuIndex gpu, Plan plan) {
    return nvml.inSequence(() -> run(gpu, plan));
  }

  private Execution run(GpuIndex gpu, Plan plan) {
    DeviceHandle device = nvml.deviceByIndex(gpu.value());
    var run = new Run(gpu, device, plan);
    for (Step step : plan.steps()) {
      listener.stepStarted(step);
      try {
        Optional<NvmlReturn> pending = performWithRetry(run, step);
        if (pending.isPresent()) {
          log.info(
              "gpu={} step={} result=pending activation={}",
              gpu,
              step.getClass().getSimpleName(),
              pending.get().cName());
          return new Execution.ModeChangePending(step, pending.get());
        }
        listener.stepDone(step);
        log.info("gpu={} step={} result=done", gpu, step);
      } catch (NvmlException e) {
        log.warn("gpu={} step={} result={} function={}", gpu, step, e.code().cName(), e.function());
        listener.stepFailed(step, e);
        run.undoHalfMade();
        return new Execution.StepFailed(step, e);
      }
    }
    return new Execution.Completed();
  }

  private Optional<NvmlReturn> performWithRetry(Run run, Step step) {
    try {
      return Failsafe.with(transientRetry).get(() -> run.perform(step));
    } catch (FailsafeException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** The state of one plan's run: what it created, so a failure can undo the half-made part. */
  private final class Run {
    private final GpuIndex gpu;
    private final DeviceHandle device;
    private final Map<Placement, GpuInstanceHandle> createdGpuInstances = new HashMap<>();
    private final Map<Placement, List<io.migd.nvml.ComputeInstanceHandle>> createdCompute =
        new HashMap<>();
    private final Map<Placement, Integer> expectedCompute = new HashMap<>();

    Run(GpuIndex gpu, DeviceHandle device, Plan plan) {
      this.gpu = gpu;
      this.device = device;
      for (Step step : plan.steps()) {
        if (step instanceof CreateComputeInstance create) {
          expectedCompute.merge(create.giPlacement(), 1, Integer::sum);
        }
      }
    }

    Optional<NvmlReturn> perform(Step step) {
      switch (step) {
        case EnableMig(var gpu) -> {
          return activation(nvml.setMigMode(device, true));
        }
        case DisableMig(var gpu) -> {
          return activation(nvml.setMigMode(device, false));
        }
        case DestroyComputeInstance(var gpu, var giId, var ciId) ->
            nvml.destroyComputeInstance(
                nvml.computeInstanceById(nvml.gpuInstanceById(device, giId), ciId));
        case DestroyGpuInstance(var gpu, var giId) ->
            nvml.destroyGpuInstance(nvml.gpuInstanceById(device, giId));
        case CreateGpuInstance(var gpu, var profile, var profileId, var at) -> {
          var gi = nvml.createGpuInstance(device, profileId, placement(at));
          createdGpuInstances.put(at, gi);
        }
        case CreateComputeInstance(var gpu, var giAt, var profile, var profileId, var at) -> {
          GpuInstanceHandle gi = gpuInstanceAt(giAt);
          var ci = nvml.createComputeInstance(gi, profileId, placement(at));
          if (createdGpuInstances.containsKey(giAt)) {
            createdCompute.computeIfAbsent(giAt, p -> new ArrayList<>()).add(ci);
          }
        }
      }
      return Optional.empty();
    }

    private Optional<NvmlReturn> activation(NvmlReturn status) {
      return status == NvmlReturn.SUCCESS ? Optional.empty() : Optional.of(status);
    }

    private GpuInstanceHandle gpuInstanceAt(Placement at) {
      GpuInstanceHandle created = createdGpuInstances.get(at);
      if (created != null) {
        return created;
      }
      for (var profile : nvml.gpuInstanceProfiles(device)) {
        for (var gi : nvml.gpuInstances(device, profile.id())) {
          var p = nvml.gpuInstanceInfo(gi).placement();
          if (p.start() == at.start() && p.size() == at.size()) {
            return gi;
          }
        }
      }
      throw new IllegalStateException(
          "no GPU instance at " + at + " to create a compute instance in");
    }

    /**
     * A GPU instance this run created but could not give all its compute instances is destroyed
     * again, with the compute instances it got; instances that existed before are never touched.
     */
    void undoHalfMade() {
      createdGpuInstances.forEach(
          (at, gi) -> {
            if (createdCompute.getOrDefault(at, List.of()).size()
                >= expectedCompute.getOrDefault(at, 0)) {
              return;
            }
            try {
              for (var ci : createdCompute.getOrDefault(at, List.of())) {
                nvml.destroyComputeInstance(ci);
              }
              nvml.destroyGpuInstance(gi);
              log.info("gpu={} undid half-made GPU instance placement={}", gpu.value(), at);
            } catch (NvmlException e) {
              log.warn(
                  "gpu={} could not undo half-made GPU instance placement={} result={}; the next"
                      + " reconcile removes it",
                  gpu.value(),
                  at,
                  e.code().cName());
            }
          });
    }
  }

  private static InstancePlacement placement(Placement p) {
    return new InstancePlacement(p.start(), p.size());
  }
}
