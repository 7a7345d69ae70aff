package io.migd.claims;

import java.util.Optional;

/**
 * Reads the Pods a claim is reserved for from the API server (the fabric8 side implements it in the
 * node module).
 */
public interface PodSource {
  /** No API server: no pod is known (tests). */
  PodSource NONE = (namespace, name) -> Optional.empty();

  /**
   * The pod of this namespace and name, or empty when there is none.
   *
   * @throws ClaimSource.ClaimReadException when the API server cannot be asked
   */
  Optional<ConsumerPod> pod(String namespace, String name);
}
