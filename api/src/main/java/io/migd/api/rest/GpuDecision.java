package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What was decided for one GPU.
 *
 * @param gpu the GPU's index
 * @param decision {@code inSync}, {@code change}, {@code blocked}, {@code infeasible}, {@code
 *     failed} or {@code unmanaged}
 * @param reason one sentence for people; for {@code failed} the NVML call and its code
 * @param holders the pods or processes that block the change (empty otherwise)
 * @param state where the GPU ended its last reconcile ({@code success}, {@code applying}, ...), or
 *     null for a plan that did not run
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GpuDecision(
    int gpu, String decision, String reason, List<String> holders, String state) {
  /** Copies the list. */
  public GpuDecision {
    holders = List.copyOf(holders);
  }
}
