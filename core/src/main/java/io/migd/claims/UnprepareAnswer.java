package io.migd.claims;

import io.migd.ownership.ClaimKey;
import java.util.Objects;

/** What became of one claim of an unprepare call. */
public sealed interface UnprepareAnswer {
  /** The claim answered. */
  ClaimKey claim();

  /** Nothing the claim owned is left to it (also the answer for a claim never prepared). */
  record Unprepared(ClaimKey claim) implements UnprepareAnswer {
    /** Checks every part is there. */
    public Unprepared {
      Objects.requireNonNull(claim);
    }
  }

  /** The claim still owns something; {@code error} names it and why. */
  record Failed(ClaimKey claim, String error) implements UnprepareAnswer {
    /** Checks every part is there. */
    public Failed {
      Objects.requireNonNull(claim);
      Objects.requireNonNull(error);
    }
  }
}
