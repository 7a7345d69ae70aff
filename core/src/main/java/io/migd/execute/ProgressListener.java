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

  /** Tells each of {@code listeners}, in order. */
  static ProgressListener all(java.util.List<ProgressListener> listeners) {
    var each = java.util.List.copyOf(listeners);
    return new ProgressListener() {
      @Override
      public void planMade(GpuIndex gpu, Plan plan) {
        each.forEach(l -> l.planMade(gpu, plan));
      }

      @Override
      public void stepStarted(Step step) {
        each.forEach(l -> l.stepStarted(step));
      }

      @Override
      public void stepDone(Step step) {
        each.forEach(l -> l.stepDone(step));
      }

      @Override
      public void stepFailed(Step step, NvmlException cause) {
        each.forEach(l -> l.stepFailed(step, cause));
      }
    };
  }

  /** A plan was made for a GPU and is about to run. */
  default void planMade(GpuIndex gpu, Plan plan) {}

  /** A step is about to run. */
  default void stepStarted(Step step) {}

  /** A step ran. */
  default void stepDone(Step step) {}

  /** A step failed. */
  default void stepFailed(Step step, NvmlException cause) {}
}
