package io.migd.claims;

/**
 * A claim cannot be prepared or unprepared now; the message is the sentence the kubelet shows (it
 * names the device and the reason) and retries.
 */
final class ClaimFailure extends RuntimeException {
  ClaimFailure(String sentence) {
    super(sentence);
  }

  ClaimFailure(String sentence, Throwable cause) {
    super(sentence, cause);
  }
}
