package io.migd.reconcile;

import io.migd.plan.PlannerBound;
import java.util.Objects;

/**
 * How a {@link Reconciler} decides and runs, as the daemon's settings choose: the kubelet mode's
 * ownership of devices, the operand pause, how many GPUs change at once, and the planner's bound.
 */
record ReconcilerOptions(
    DeviceOwnership ownership, OperandPause pause, GpuPool pool, PlannerBound bound) {
  /** Device-plugin mode, no operand pause, every GPU at once, the default planner bound. */
  static ReconcilerOptions defaults() {
    return new ReconcilerOptions(
        DeviceOwnership.DEVICE_PLUGIN, OperandPause.off(), new GpuPool(0), PlannerBound.DEFAULT);
  }

  ReconcilerOptions {
    Objects.requireNonNull(ownership, "ownership");
    Objects.requireNonNull(pause, "pause");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(bound, "bound");
  }

  ReconcilerOptions withOwnership(DeviceOwnership ownership) {
    return new ReconcilerOptions(ownership, pause, pool, bound);
  }

  ReconcilerOptions withPause(OperandPause pause) {
    return new ReconcilerOptions(ownership, pause, pool, bound);
  }

  ReconcilerOptions withPool(GpuPool pool) {
    return new ReconcilerOptions(ownership, pause, pool, bound);
  }

  ReconcilerOptions withBound(PlannerBound bound) {
    return new ReconcilerOptions(ownership, pause, pool, bound);
  }
}
