package io.migd.reconcile;

import io.migd.layout.ObservedGpu;

/**
 * Resets a GPU so a pending MIG mode takes effect: {@code migd.reset-command} on a real node, the
 * simulator's reset under {@code --simulate}. Only called when nothing runs on the GPU.
 */
@FunctionalInterface
public interface GpuReset {
  /** Never resets; MIG mode changes wait for the holder to let go. */
  GpuReset NONE = gpu -> new Result(false, "no reset is configured");

  /** What a reset attempt did. */
  record Result(boolean done, String detail) {}

  /** Resets one GPU. */
  Result reset(ObservedGpu gpu);
}
