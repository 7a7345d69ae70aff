package io.migd.dra;

/**
 * A ResourceClaim as the kubelet names it in a prepare or unprepare call. The kubelet always sends
 * all three; a call without them is malformed.
 */
public record ClaimRef(String namespace, String uid, String name) {
  public ClaimRef {
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

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
