package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The answer of {@code GET /api/v1/layout}: the intent and how far the node is.
 *
 * @param desired the intent
 * @param state the node state ({@code success}, {@code applying}, {@code blocked}, {@code
 *     rebooting}, {@code failed}, {@code infeasible}), or {@code pending} while the intent is
 *     accepted and its reconcile has not started
 * @param reason one sentence saying why
 * @param plan the steps of the last reshape, each with the time it took once it ran
 * @param decisions the decision per GPU of the last reconcile, with the state it ended in
 * @param inFlight the step each GPU is executing now (at most one per GPU)
 * @param outcome the last reconcile, or null before the first one ended
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LayoutStatus(
    DesiredLayout desired,
    String state,
    String reason,
    PlanSteps plan,
    List<GpuDecision> decisions,
    List<PlanStep> inFlight,
    ReconcileOutcome outcome) {
  /** Copies the lists. */
  public LayoutStatus {
    decisions = List.copyOf(decisions);
    inFlight = List.copyOf(inFlight);
  }
}
