package io.migd.layout;

import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.List;
import java.util.Objects;

/** A GPU instance that exists, with its placement in memory slices and its compute instances. */
public record LiveGpuInstance(
    int id,
    int profileId,
    ProfileName profile,
    Placement placement,
    List<LiveComputeInstance> computeInstances) {
  /** Copies the list. */
  public LiveGpuInstance {
    Objects.requireNonNull(profile);
    Objects.requireNonNull(placement);
    computeInstances = List.copyOf(computeInstances);
  }
}
