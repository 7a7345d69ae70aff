package io.migd.api.rest;

import java.util.List;

/**
 * A named config of the config file and what it resolves to on this node ({@code GET
 * /api/v1/configs}).
 *
 * @param name the config's name
 * @param gpus the layout it gives each GPU it selects, in the shape {@code PUT} takes
 * @param decisions per GPU it selects, whether it could apply now ({@code inSync}, {@code change},
 *     {@code infeasible} with what would fit)
 */
public record ConfigStatus(String name, List<GpuLayout> gpus, List<GpuDecision> decisions) {
  /** Copies the lists. */
  public ConfigStatus {
    gpus = List.copyOf(gpus);
    decisions = List.copyOf(decisions);
  }
}
