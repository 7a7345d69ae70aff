package io.migd.profiles;

/**
 * A compute-instance profile that a GPU-instance profile offers, as {@code
 * nvmlGpuInstanceGetComputeInstanceProfileInfoV} reports it.
 *
 * @param index the {@code NVML_COMPUTE_INSTANCE_PROFILE_*} constant to ask NVML for it
 * @param id the profile ID NVML reports and {@code nvmlGpuInstanceCreateComputeInstance} uses
 * @param slices compute slices of the compute instance
 * @param instances how many such compute instances fit in one GPU instance
 * @param smCount streaming multiprocessors of one compute instance
 */
public record CiProfile(int index, int id, int slices, int instances, int smCount) {

  /**
   * Validates the counts.
   *
   * @throws IllegalArgumentException if a constant or ID is negative or a count below 1
   */
  public CiProfile {
    if (index < 0 || id < 0 || slices < 1 || instances < 1 || smCount < 1) {
      throw new IllegalArgumentException(
          "invalid CI profile index="
              + index
              + " id="
              + id
              + " slices="
              + slices
              + " instances="
              + instances
              + " sm="
              + smCount);
    }
  }
}
