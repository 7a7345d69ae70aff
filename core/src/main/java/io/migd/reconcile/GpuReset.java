package io.migd.reconcile;

import io.migd.layout.ObservedGpu;
import io.migd.nvml.NvmlReturn;

/**
 * Resets a GPU so a pending MIG mode takes effect: {@code migd.reset-command} on a real node, the
 * simulator's reset under {@code --simulate}. Only called when nothing runs on the GPU.
 */
@FunctionalInterface
public interface GpuReset {
  /** Never resets; MIG mode changes wait for the holder to let go. */
  GpuReset NONE = gpu -> new Result.NotDone("no reset is configured");

  /** What a reset attempt did. */
  sealed interface Result {
    /** The GPU was reset; {@code detail} is what the reset said. */
    record Done(String detail) implements Result {}

    /** The GPU was not reset (the command failed, timed out or was refused), and why. */
    record NotDone(String detail) implements Result {}

    /**
     * NVML did not initialise again after the reset, even after retries with backoff; {@code
     * detail} says so with NVML's answer. Nothing on the node can be observed until it does.
     */
    record NvmlDown(NvmlReturn code, String detail) implements Result {}

    /** A result from a reset's success and output. */
    static Result of(boolean done, String detail) {
      return done ? new Done(detail) : new NotDone(detail);
    }
  }

  /** Resets one GPU. */
  Result reset(ObservedGpu gpu);
}
