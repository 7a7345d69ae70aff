package io.migd.app;

import io.migd.claims.ClaimPreparer;
import io.migd.layout.ObservedGpu;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.PoolSurface;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node as the DRA driver: the pool it publishes and the preparer of its claims, which read each
 * other (prepare checks a claim against the published pool; the pool marks what prepared claims
 * own). Told of every outcome: the first one runs the restart recovery (its dynamic GPUs are known
 * only then; until a GPU is reconciled no prepare touches it), then the pool is rebuilt, and a
 * dynamic GPU observed with a GPU instance that has no compute instance gets it swept on its claim
 * thread ({@link ClaimPreparer#sweepHalfMade}).
 */
record DraNode(
    PoolSurface pool, ClaimPreparer preparer, LatestOutcome outcomes, AtomicBoolean recovered)
    implements OutcomeListener {
  private static final Logger log = LoggerFactory.getLogger(DraNode.class);

  DraNode(PoolSurface pool, ClaimPreparer preparer, LatestOutcome outcomes) {
    this(pool, preparer, outcomes, new AtomicBoolean());
  }

  /** Which prepared claim owns which device (the checkpoint, from memory). */
  ClaimedDevices claimed() {
    return preparer.claimed();
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    if (outcome.error().isEmpty()) {
      outcomes.set(outcome);
    }
    if (outcome.error().isEmpty() && recovered.compareAndSet(false, true)) {
      var dynamic = new TreeSet<>(outcome.gpus().keySet());
      dynamic.removeIf(gpu -> !outcome.dynamic(gpu));
      var findings = preparer.recover(dynamic);
      findings.forEach(f -> log.info("DRA restart: {}", f.sentence()));
      log.info(
          "DRA restart recovery done: findings={} dynamicGpus={} preparedDevices={}",
          findings.size(),
          dynamic,
          preparer.claimed().all().size());
    }
    pool.reconciled(desired, outcome);
    if (outcome.error().isEmpty()) {
      for (ObservedGpu gpu : outcome.observed().gpus()) {
        if (outcome.dynamic(gpu.index())
            && gpu.gpuInstances().stream().anyMatch(gi -> gi.computeInstances().isEmpty())) {
          preparer.sweepHalfMade(gpu.index());
        }
      }
    }
  }
}
