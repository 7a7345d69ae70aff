package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.plan.Decision;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * What one intent would make of the node, decided without changing anything: one of the answers of
 * {@link Reconciler}'s plan of several intents over one observation.
 *
 * @param targets the target of every GPU the intent selects, in GPU order
 * @param decisions the decision for every GPU of the node (and any GPU the intent names that the
 *     node lacks), {@link Decision.Unmanaged} for one it does not select
 */
public record NodePlan(
    SequencedMap<GpuIndex, GpuTarget> targets, SequencedMap<GpuIndex, Decision> decisions) {
  /** Copies both maps, keeping their order. */
  public NodePlan {
    targets = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(targets));
    decisions = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(decisions));
  }
}
