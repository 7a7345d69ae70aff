package io.migd.execute;

import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Told about progress while plans run, so surfaces can show the step in flight and withdraw a slice
 * before its GPU is touched. The GPUs of a node run in parallel, each on a thread of its own, but
 * the reconciler hands a listener one event at a time ({@link #oneAtATime}), and one GPU's events
 * in their order, so a listener needs no locking of its own for that. Keep calls short and make no
 * NVML call in them: other GPUs' steps wait while one runs, and a GPU reset waits for those steps.
 * A listener safe to call from several threads at once may be told without that lock ({@code
 * Reconciler.overConcurrent}, the daemon's MPS daemons, whose {@code quit} takes long): only its
 * own GPU's plan waits for it.
 */
public interface ProgressListener {
  /** Listens to nothing. */
  ProgressListener NONE = new ProgressListener() {};

  /**
   * Tells each of {@code listeners}, in order, each failing on its own ({@link ProgressListeners},
   * named by their class).
   */
  static ProgressListener all(List<ProgressListener> listeners) {
    return new ProgressListeners(
        listeners.stream()
            .map(l -> new ProgressListeners.Named(l.getClass().getSimpleName(), l))
            .toList(),
        ListenerFailures.NONE);
  }

  /**
   * {@code listener} told one event at a time, whatever thread each comes from: the events of
   * several GPUs interleave, each GPU's keep their order.
   */
  static ProgressListener oneAtATime(ProgressListener listener) {
    var lock = new ReentrantLock();
    return new ProgressListener() {
      @Override
      public void planMade(GpuIndex gpu, Plan plan) {
        locked(() -> listener.planMade(gpu, plan));
      }

      @Override
      public void planAbandoned(GpuIndex gpu, Plan plan) {
        locked(() -> listener.planAbandoned(gpu, plan));
      }

      @Override
      public void stepStarted(Step step) {
        locked(() -> listener.stepStarted(step));
      }

      @Override
      public void stepDone(Step step) {
        locked(() -> listener.stepDone(step));
      }

      @Override
      public void stepFailed(Step step, NvmlException cause) {
        locked(() -> listener.stepFailed(step, cause));
      }

      private void locked(Runnable call) {
        lock.lock();
        try {
          call.run();
        } finally {
          lock.unlock();
        }
      }
    };
  }

  /** A plan was made for a GPU and is about to run. */
  default void planMade(GpuIndex gpu, Plan plan) {}

  /**
   * A plan {@link #planMade} announced will not run: the check made after the announcement found
   * the GPU in another state (a slice taken meanwhile), and the GPU is decided again later.
   */
  default void planAbandoned(GpuIndex gpu, Plan plan) {}

  /** A step is about to run. */
  default void stepStarted(Step step) {}

  /** A step ran. */
  default void stepDone(Step step) {}

  /** A step failed. */
  default void stepFailed(Step step, NvmlException cause) {}
}
