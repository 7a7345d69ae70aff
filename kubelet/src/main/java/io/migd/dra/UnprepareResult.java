package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.Objects;

/** What became of one claim of an unprepare call. */
public sealed interface UnprepareResult {
  ClaimKey claim();

  /** Nothing of the claim is left on the node (also the answer for a claim never prepared). */
  record Unprepared(ClaimKey claim) implements UnprepareResult {
    public Unprepared {
      Objects.requireNonNull(claim);
    }
  }

  /** Something of the claim is still there; the kubelet retries. */
  record Failed(ClaimKey claim, String error) implements UnprepareResult {
    public Failed {
      Objects.requireNonNull(claim);
      // an empty error means success on the wire
      if (error == null || error.isBlank()) {
        error = "unpreparing claim " + claim.label() + " failed without a reason";
      }
    }
  }
}
