package io.migd.profiles;

import java.util.ArrayList;
import java.util.List;

/**
 * A compute-instance profile that a GPU-instance profile offers, as {@code
 * nvmlGpuInstanceGetComputeInstanceProfileInfoV} reports it, with its possible placements inside
 * the GPU instance as {@code nvmlGpuInstanceGetComputeInstancePossiblePlacements} reports them.
 *
 * @param index the {@code NVML_COMPUTE_INSTANCE_PROFILE_*} constant to ask NVML for it
 * @param id the profile ID NVML reports and {@code nvmlGpuInstanceCreateComputeInstance} uses
 * @param slices compute slices of the compute instance
 * @param instances how many such compute instances fit in one GPU instance
 * @param smCount streaming multiprocessors of one compute instance
 * @param placements where a compute instance of this profile may sit, in compute slices of its GPU
 *     instance, in the order NVML lists them; {@link #slicePlacements} where NVML has not said
 */
public record CiProfile(
    int index, int id, int slices, int instances, int smCount, List<Placement> placements) {

  /**
   * Validates the counts and copies the placements.
   *
   * @throws IllegalArgumentException if a constant or ID is negative, a count below 1, or there is
   *     no placement
   */
  public CiProfile {
    placements = List.copyOf(placements);
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
    if (placements.isEmpty()) {
      throw new IllegalArgumentException("CI profile id=" + id + " has no placement");
    }
  }

  /**
   * The built-in slice rule: a compute instance of {@code computeSlices} slices starts at each
   * multiple of {@code computeSlices} that leaves it inside the GPU instance. It is what the
   * drivers observed so far answer, and migd's fallback until NVML answers for a profile.
   *
   * @param computeSlices compute slices of the compute instance
   * @param giSlices compute slices of the GPU instance
   * @return the placements, lowest start first; empty when the compute instance is larger than the
   *     GPU instance
   */
  public static List<Placement> slicePlacements(int computeSlices, int giSlices) {
    if (computeSlices < 1) {
      throw new IllegalArgumentException("a compute instance of " + computeSlices + " slices");
    }
    var result = new ArrayList<Placement>();
    for (int start = 0; start + computeSlices <= giSlices; start += computeSlices) {
      result.add(new Placement(start, computeSlices));
    }
    return List.copyOf(result);
  }

  /**
   * The same profile with other placements, such as those NVML reported.
   *
   * @param newPlacements the placements
   * @return the profile
   */
  public CiProfile withPlacements(List<Placement> newPlacements) {
    return new CiProfile(index, id, slices, instances, smCount, newPlacements);
  }
}
