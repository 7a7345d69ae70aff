package io.migd.pool;

import io.migd.layout.GpuIndex;
import java.util.Set;

/**
 * What health checking says of the node's devices when the pool is built: XID marks, and each lost
 * GPU marked lost. The pool depends on this, never on who keeps the marks.
 */
@FunctionalInterface
public interface HealthMarks {
  /** The marks now, with {@code lostGpus} (the GPUs NVML answers {@code GPU_IS_LOST} for) lost. */
  DeviceTaints marks(Set<GpuIndex> lostGpus);
}
