package io.migd.claims;

import io.migd.execute.Execution;
import io.migd.execute.Executor;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.MigModeChange;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.GpuModelCatalog;
import java.util.List;

/**
 * How a claim's NVML sequence changes a GPU: as a plan run by the {@link Executor}, the one writer
 * of MIG state, so a claim's changes are retried, undone when half made, and told to the progress
 * listeners (and so the metrics) as the reconcile's are; and the checks every sequence starts with.
 */
final class ClaimPlans {

  private final Nvml nvml;
  private final GpuModelCatalog catalog;
  private final Executor executor;

  ClaimPlans(Nvml nvml, GpuModelCatalog catalog, Executor executor) {
    this.nvml = nvml;
    this.catalog = catalog;
    this.executor = executor;
  }

  /** The GPU at {@code index}, checked to be the one the pool named ({@code gpuUuid}). */
  DeviceHandle gpu(String name, GpuIndex index, String gpuUuid) {
    DeviceHandle device = nvml.deviceByIndex(index.value());
    String uuid = nvml.uuid(device);
    if (!uuid.equals(gpuUuid)) {
      throw new ClaimFailure(
          "device " + name + ": GPU " + index + " is now " + uuid + ", not " + gpuUuid);
    }
    return device;
  }

  /**
   * Whether the GPU's MIG mode follows the claims: NVML's architecture says it changes without a
   * reset (Hopper and later; {@link MigModeChange}, the rule every path reads).
   */
  boolean followsClaims(DeviceHandle device) {
    return MigModeChange.of(nvml.architecture(device)) == MigModeChange.AT_ONCE;
  }

  /** The steps that destroy a GPU instance: its compute instances, then itself. */
  static void destroySteps(GpuIndex gpu, LiveGpuInstance gi, List<Step> steps) {
    for (LiveComputeInstance ci : gi.computeInstances()) {
      steps.add(new Step.DestroyComputeInstance(gpu, gi.id(), ci.id()));
    }
    steps.add(new Step.DestroyGpuInstance(gpu, gi.id()));
  }

  /**
   * Runs a claim's plan through the executor; a step NVML refuses for want of room or because the
   * instance is in use is the claim's sentence, any other failure NVML's.
   */
  Execution run(String name, GpuIndex gpu, List<Step> steps) {
    if (steps.isEmpty()) {
      return new Execution.Completed();
    }
    Execution done = executor.execute(gpu, new Plan(steps));
    if (done instanceof Execution.StepFailed(var step, var cause)) {
      if (cause.code() == NvmlReturn.INSUFFICIENT_RESOURCES) {
        throw new ClaimFailure(
            "device " + name + ": " + cause.function() + " answered " + cause.code() + " (no room)",
            cause);
      }
      boolean destroying =
          step instanceof Step.DestroyGpuInstance || step instanceof Step.DestroyComputeInstance;
      if (destroying && cause.code() == NvmlReturn.IN_USE) {
        throw new ClaimFailure("device " + name + ": " + step + " is refused: in use", cause);
      }
      throw cause;
    }
    return done;
  }
}
