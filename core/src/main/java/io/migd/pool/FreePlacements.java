package io.migd.pool;

import io.migd.layout.GpuIndex;
import java.util.Objects;

/**
 * How many placements of a profile a dynamic GPU still offers: published, not prepared, and not
 * overlapping a prepared or busy instance ({@code migd_dra_free_placements}).
 *
 * @param profile the profile as NVML names it, {@code 1g.10gb}
 */
public record FreePlacements(GpuIndex gpu, String profile, int free) {
  /** Checks every part is there. */
  public FreePlacements {
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(profile);
  }
}
