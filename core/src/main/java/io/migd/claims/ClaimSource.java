package io.migd.claims;

import java.util.List;
import java.util.Optional;

/** Reads ResourceClaims from the API server (the fabric8 side implements it in the node module). */
public interface ClaimSource {
  /**
   * The claim of this namespace and name, or empty when there is none.
   *
   * @throws ClaimReadException when the API server cannot be asked
   */
  Optional<AllocatedClaim> get(String namespace, String name);

  /**
   * Every claim of the cluster that is allocated from this node's pool.
   *
   * @throws ClaimReadException when the API server cannot be asked
   */
  List<AllocatedClaim> listAllocatedToPool();

  /** The API server could not be asked; the sentence says what failed. */
  final class ClaimReadException extends RuntimeException {
    /** A failure with its cause. */
    public ClaimReadException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
