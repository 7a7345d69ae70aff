package io.migd.app;

import io.migd.nvml.Nvml;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.ResetsInProgress;
import java.time.Clock;

/**
 * An open NVML and the way to reset its GPUs (the simulator's, or the reset command), recorded in
 * {@code resets} while it runs so readers that give up waiting can name it.
 */
public record NvmlSession(Nvml nvml, GpuReset reset, ResetsInProgress resets)
    implements AutoCloseable {
  /** A session whose resets are recorded as they run. */
  static NvmlSession of(Nvml nvml, GpuReset reset) {
    var resets = new ResetsInProgress(Clock.systemUTC());
    return new NvmlSession(nvml, resets.tracking(reset), resets);
  }

  @Override
  public void close() {
    nvml.close();
  }
}
