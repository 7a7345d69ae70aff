package io.migd.sharing;

/** A claim's opaque configuration migd cannot apply; the message is the sentence the claim gets. */
public final class ConfigRefused extends RuntimeException {
  /** A refusal saying why. */
  public ConfigRefused(String message) {
    super(message);
  }
}
