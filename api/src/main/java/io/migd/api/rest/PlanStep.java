package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One step of a plan.
 *
 * @param gpu the GPU it changes
 * @param action {@code enableMig}, {@code disableMig}, {@code createGpuInstance}, {@code
 *     destroyGpuInstance}, {@code createComputeInstance}, {@code destroyComputeInstance}, {@code
 *     resetGpu} or {@code reboot}
 * @param profile the MIG profile created, or null
 * @param placement where the instance created sits, or null: in memory slices for a GPU instance,
 *     in compute slices of its GPU instance for a compute instance
 * @param gpuInstancePlacement for a compute instance created, the placement of its GPU instance
 *     (which the same plan may create, so it is named by placement)
 * @param gpuInstanceId the GPU instance of an existing instance (destroys only; never predicted)
 * @param computeInstanceId the compute instance destroyed, or null
 * @param durationMs how long the step took, once it ran
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanStep(
    int gpu,
    String action,
    String profile,
    Placement placement,
    Placement gpuInstancePlacement,
    Integer gpuInstanceId,
    Integer computeInstanceId,
    Long durationMs) {

  /** The same step, with the time it took. */
  public PlanStep took(long millis) {
    return new PlanStep(
        gpu,
        action,
        profile,
        placement,
        gpuInstancePlacement,
        gpuInstanceId,
        computeInstanceId,
        millis);
  }
}
