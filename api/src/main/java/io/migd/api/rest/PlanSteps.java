package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The steps of a plan, every GPU's in GPU order.
 *
 * @param steps the steps
 * @param durationMs for a reshape that ran, from its first step's start to its last step's end
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanSteps(List<PlanStep> steps, Long durationMs) {
  /** Copies the list. */
  public PlanSteps {
    steps = List.copyOf(steps);
  }
}
