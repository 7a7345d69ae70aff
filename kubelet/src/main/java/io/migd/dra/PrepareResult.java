package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.Objects;

/** What became of one claim of a prepare call. */
public sealed interface PrepareResult {
  ClaimKey claim();

  /** The claim is prepared; the kubelet hands these devices to its containers. */
  record Prepared(ClaimKey claim, List<PreparedDevice> devices) implements PrepareResult {
    public Prepared {
      Objects.requireNonNull(claim);
      devices = List.copyOf(devices);
    }
  }

  /** The claim is not prepared; the kubelet shows {@code error} on the pod and retries. */
  record Failed(ClaimKey claim, String error) implements PrepareResult {
    public Failed {
      Objects.requireNonNull(claim);
      // an empty error means success on the wire
      if (error == null || error.isBlank()) {
        error = "preparing claim " + claim.label() + " failed without a reason";
      }
    }
  }
}
