package io.migd.api.rest;

import java.util.List;

/**
 * A plan that changes nothing: the answer of {@code PUT /api/v1/layout?dryRun=true} and the output
 * of {@code migd plan -o json}.
 *
 * @param plan the steps every GPU would take
 * @param decisions the decision per GPU
 */
public record PlanResult(PlanSteps plan, List<GpuDecision> decisions) {
  /** Copies the list. */
  public PlanResult {
    decisions = List.copyOf(decisions);
  }
}
