package io.migd.ownership;

import java.util.List;
import java.util.Objects;

/**
 * A pod a prepared claim is reserved for ({@code status.reservedFor}), with the containers that
 * reference the claim ({@code resources.claims[]}); empty when the pod could not be read.
 */
public record ReservedPod(String namespace, String name, String uid, List<String> containers) {
  /** Copies the list. */
  public ReservedPod {
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
    Objects.requireNonNull(uid);
    containers = List.copyOf(containers);
  }
}
