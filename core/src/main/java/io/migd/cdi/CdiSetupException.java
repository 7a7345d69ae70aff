package io.migd.cdi;

/**
 * CDI cannot work with the settings given (the driver root or the hook is missing): the start is
 * refused, naming the path and the property to change.
 */
public final class CdiSetupException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A refusal saying what is missing and what to change. */
  public CdiSetupException(String message) {
    super(message);
  }
}
