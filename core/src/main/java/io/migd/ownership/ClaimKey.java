package io.migd.ownership;

/**
 * A ResourceClaim as the kubelet names it in a prepare or unprepare call. The kubelet always sends
 * all three; a call without them is malformed.
 */
public record ClaimKey(String uid, String namespace, String name) {
  /** Checks every part is there and not blank. */
  public ClaimKey {
    if (isBlank(namespace) || isBlank(uid) || isBlank(name)) {
      throw new IllegalArgumentException(
          "a claim needs a namespace, a uid and a name, got namespace=\""
              + namespace
              + "\" name=\""
              + name
              + "\" uid=\""
              + uid
              + "\"");
    }
  }

  /** How a sentence names the claim: {@code default/train (uid 0a1b)}. */
  public String label() {
    return namespace + "/" + name + " (uid " + uid + ")";
  }

  /** How a claim is named as the holder of a device: {@code claim default/train}. */
  public String holder() {
    return "claim " + namespace + "/" + name;
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
