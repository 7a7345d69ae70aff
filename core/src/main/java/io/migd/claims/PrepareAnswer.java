package io.migd.claims;

import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.Objects;

/** What became of one claim of a prepare call. */
public sealed interface PrepareAnswer {
  /** The claim answered. */
  ClaimKey claim();

  /**
   * The claim's devices are ready (none when no result of the claim is migd's), each answered with
   * its request names and CDI IDs.
   *
   * @param pool the pool the devices are in (the node's name)
   */
  record Prepared(ClaimKey claim, String pool, List<CheckpointClaim.Device> devices)
      implements PrepareAnswer {
    /** Copies the list. */
    public Prepared {
      Objects.requireNonNull(claim);
      Objects.requireNonNull(pool);
      devices = List.copyOf(devices);
    }
  }

  /** The claim is not prepared; {@code error} names the device and the reason. */
  record Failed(ClaimKey claim, String error) implements PrepareAnswer {
    /** Checks every part is there. */
    public Failed {
      Objects.requireNonNull(claim);
      Objects.requireNonNull(error);
    }
  }
}
