package io.migd.reconcile;

/** Told about every finished reconcile: metrics, REST status, node labels, events. */
@FunctionalInterface
public interface OutcomeListener {
  /** A reconcile ended. */
  void reconciled(Desired desired, Outcome outcome);
}
