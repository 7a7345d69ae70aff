package io.migd.mps;

import io.migd.devices.NodeSharing;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;

/**
 * Brings the MPS control daemons in line with each outcome: a daemon for every GPU and slice the
 * reconcile's targets share by MPS, on the node as the reconcile left it. An outcome that could not
 * list the GPUs changes nothing. It reads the outcome and never resolves the intent again; it runs
 * first among the surfaces, so a daemon is up before the kubelet is shown its replicas.
 */
public final class MpsSync implements OutcomeListener {
  private final MpsDaemons daemons;

  /** Syncs {@code daemons}. */
  public MpsSync(MpsDaemons daemons) {
    this.daemons = daemons;
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    if (!outcome.error().isEmpty()) {
      return;
    }
    daemons.reconciled(outcome.observed(), NodeSharing.of(outcome));
  }
}
