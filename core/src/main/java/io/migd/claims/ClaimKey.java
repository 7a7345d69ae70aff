package io.migd.claims;

import java.util.Objects;

/** A ResourceClaim as the kubelet names it in a prepare or unprepare call. */
public record ClaimKey(String uid, String namespace, String name) {
  /** Checks every part is there. */
  public ClaimKey {
    Objects.requireNonNull(uid);
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
  }

  /** How a sentence names the claim: {@code default/train (uid 0a1b)}. */
  public String label() {
    return namespace + "/" + name + " (uid " + uid + ")";
  }
}
