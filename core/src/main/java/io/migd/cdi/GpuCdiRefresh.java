package io.migd.cdi;

import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps the GPU spec in step with the node in dra mode: after each reconcile whose GPUs or MIG
 * devices differ from the spec's devices (the first one, and each reshape), it generates the spec
 * again, before the pool is told of the outcome. A failure is thrown to the listener chain (logged
 * and counted there); the next outcome tries again, and until one succeeds a prepare that needs the
 * spec's common edits fails and the kubelet retries it.
 */
public final class GpuCdiRefresh implements OutcomeListener {
  private final GpuCdiSpec spec;

  /** Refreshes {@code spec}. */
  public GpuCdiRefresh(GpuCdiSpec spec) {
    this.spec = spec;
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    if (!outcome.error().isEmpty()) {
      return;
    }
    Set<String> devices = new TreeSet<>();
    for (ObservedGpu gpu : outcome.observed().gpus()) {
      devices.add(gpu.uuid());
      for (LiveGpuInstance gi : gpu.gpuInstances()) {
        for (LiveComputeInstance ci : gi.computeInstances()) {
          devices.add(ci.uuid());
        }
      }
    }
    boolean current =
        spec.latest()
            .map(g -> new TreeSet<>(g.deviceNames()))
            .map(
                names -> {
                  names.remove(GpuCdiSpec.ALL_DEVICES);
                  return names.equals(devices);
                })
            .orElse(false);
    if (!current) {
      spec.generate();
    }
  }
}
