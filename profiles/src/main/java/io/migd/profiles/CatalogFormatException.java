package io.migd.profiles;

/**
 * Thrown when GPU model data ({@code gpu-models.tsv}) is malformed. The message names the source,
 * the line number and the reason, for example {@code gpu-models.tsv line 12: gi A30 1g.6gb: field
 * "sm" is missing}.
 */
public final class CatalogFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message where and why, as described above
   * @param cause the underlying failure, or null
   */
  public CatalogFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
