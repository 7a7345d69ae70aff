package io.migd.api.rest;

import java.util.List;

/**
 * The answer of an accepted {@code PUT /api/v1/layout} (202): the generation the new intent got and
 * the plan as decided when it was accepted.
 *
 * @param generation the new intent's generation (also the {@code ETag})
 * @param plan the steps every GPU will take
 * @param decisions the decision per GPU
 */
public record LayoutAccepted(long generation, PlanSteps plan, List<GpuDecision> decisions) {
  /** Copies the list. */
  public LayoutAccepted {
    decisions = List.copyOf(decisions);
  }
}
