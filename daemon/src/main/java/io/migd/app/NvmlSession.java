package io.migd.app;

import io.migd.nvml.Nvml;
import io.migd.reconcile.GpuReset;

/** An open NVML and the way to reset its GPUs (the simulator's, or the reset command). */
public record NvmlSession(Nvml nvml, GpuReset reset) implements AutoCloseable {
  @Override
  public void close() {
    nvml.close();
  }
}
