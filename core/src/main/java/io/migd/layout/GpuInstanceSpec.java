package io.migd.layout;

import io.migd.profiles.ProfileName;
import java.util.List;
import java.util.Objects;

/**
 * A GPU instance that should exist, without a placement: its profile and the compute instances it
 * should hold, as compute-slice counts in ascending order ({@code [4]} for one spanning a 4g
 * instance, {@code [1, 1, 1, 1]} for mig-parted's {@code 1c.4g.20gb: 4}).
 */
public record GpuInstanceSpec(ProfileName profile, List<Integer> computeInstanceSlices) {
  /** Checks the compute instances fit the profile and sorts them. */
  public GpuInstanceSpec {
    Objects.requireNonNull(profile);
    if (profile.hasComputeInstancePart()) {
      throw new IllegalArgumentException(profile + " names a compute instance, not a GPU instance");
    }
    computeInstanceSlices = computeInstanceSlices.stream().sorted().toList();
    if (computeInstanceSlices.isEmpty()) {
      throw new IllegalArgumentException(profile + " needs at least one compute instance");
    }
    int total = computeInstanceSlices.stream().mapToInt(Integer::intValue).sum();
    if (computeInstanceSlices.getFirst() < 1 || total > profile.gpuSlices()) {
      throw new IllegalArgumentException(
          "compute instances " + computeInstanceSlices + " do not fit in " + profile);
    }
  }

  /** A GPU instance holding one compute instance that spans it (the default). */
  public static GpuInstanceSpec whole(ProfileName profile) {
    return new GpuInstanceSpec(profile, List.of(profile.gpuSlices()));
  }

  /** Whether it holds only the compute instance that spans it. */
  public boolean isWhole() {
    return computeInstanceSlices.size() == 1
        && computeInstanceSlices.getFirst() == profile.gpuSlices();
  }

  @Override
  public String toString() {
    return isWhole() ? profile.toString() : profile + computeInstanceSlices.toString();
  }
}
