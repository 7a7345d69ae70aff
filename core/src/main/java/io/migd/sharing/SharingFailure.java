package io.migd.sharing;

/** Sharing could not be applied or undone; the message says what failed, on which device. */
public final class SharingFailure extends RuntimeException {
  /** A failure saying what, with its cause. */
  public SharingFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
