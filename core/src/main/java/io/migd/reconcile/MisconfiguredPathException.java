package io.migd.reconcile;

/**
 * A path property names something migd cannot use (a file that is missing or unreadable under it):
 * bad usage, refused at start with exit 2, naming the property, its value and what is wrong.
 */
public final class MisconfiguredPathException extends RuntimeException {
  private final String property;

  /**
   * {@code problem} says what migd could not do with the path {@code property} ({@code
   * migd.dra.proc-root}) gave.
   */
  public MisconfiguredPathException(String property, String problem, Throwable cause) {
    super(property + ": " + problem, cause);
    this.property = property;
  }

  /** The property, as the contract names it. */
  public String property() {
    return property;
  }
}
