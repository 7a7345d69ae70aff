package io.migd.layout;

import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.Objects;

/**
 * A compute instance that exists: one MIG device. Its placement is in compute slices of its GPU
 * instance; {@code profile} is the compute-instance name ({@code 1c.3g.20gb}, or the GPU-instance
 * name when it spans the whole GPU instance).
 */
public record LiveComputeInstance(
    int id, int profileId, ProfileName profile, Placement placement, String uuid) {
  /** Checks the references are present. */
  public LiveComputeInstance {
    Objects.requireNonNull(profile);
    Objects.requireNonNull(placement);
    Objects.requireNonNull(uuid);
  }
}
