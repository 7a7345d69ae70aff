package io.migd.claims;

import io.migd.claims.CheckpointClaim.Device;
import java.util.Objects;

/** A device a claim owns, as the other claims of its GPU see it while one is prepared. */
record Owner(ClaimKey claim, Device device) {
  Owner {
    Objects.requireNonNull(claim);
    Objects.requireNonNull(device);
  }

  /** Whether it owns the GPU instance {@code giId} at {@code start}/{@code size}. */
  boolean owns(int giId, int start, int size) {
    return device.kind() != CheckpointClaim.Kind.ADMIN_ACCESS
        && !device.wholeGpu()
        && (device.gpuInstanceId() == giId
            || device.placementStart() == start && device.placementSize() == size);
  }
}
