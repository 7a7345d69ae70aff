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

  /**
   * The GPU instances a build saw on {@code gpu}: a mark of an instance seen before and gone now
   * goes (GPU-instance ids are reused). Nothing by default.
   */
  default void instancesObserved(GpuIndex gpu, Set<Integer> gpuInstanceIds) {}
}
