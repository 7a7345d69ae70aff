package io.migd.execute;

import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;

/**
 * Told about progress while plans run, so surfaces can show the step in flight and withdraw a slice
 * before its GPU is touched. Calls arrive on the reconciler's thread; keep them short.
 */
public interface ProgressListener {
  /** Listens to nothing. */
  ProgressListener NONE = new ProgressListener() {};

  /** A plan was made for a GPU and is about to run. */
  default void planMade(GpuIndex gpu, Plan plan) {}

  /** A step is about to run. */
  default void stepStarted(Step step) {}

  /** A step ran. */
  default void stepDone(Step step) {}

  /** A step failed. */
  default void stepFailed(Step step, NvmlException cause) {}
}
