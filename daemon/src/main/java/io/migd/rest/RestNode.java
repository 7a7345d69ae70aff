package io.migd.rest;

import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.reconcile.UsageSource;
import java.util.ArrayList;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the read calls need of the node: an observer over the daemon's NVML session, and the same
 * usage source the reconciler decides from (kubelet pods where there is a kubelet, NVML processes).
 */
public record RestNode(NodeObserver observer, UsageSource usage) {

  /**
   * The node GPU by GPU: the GPUs NVML answered for, and for each one it did not, the error. One
   * GPU's failure never hides the others.
   */
  public record Observation(ObservedNode answered, SortedMap<GpuIndex, NvmlException> failed) {}

  /** Observes every GPU on its own; throws only when NVML cannot even count the GPUs. */
  public Observation observeEach() {
    var answered = new ArrayList<ObservedGpu>();
    var failed = new TreeMap<GpuIndex, NvmlException>();
    for (GpuIndex gpu : observer.gpus()) {
      try {
        answered.add(observer.observe(gpu));
      } catch (NvmlException e) {
        failed.put(gpu, e);
      }
    }
    return new Observation(new ObservedNode(answered), failed);
  }
}
