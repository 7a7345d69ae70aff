package io.migd.profiles;

/**
 * Thrown when a mig-parted config file is not valid: not YAML, not version {@code v1}, an unknown
 * key, a value of the wrong type, or a profile name that breaks NVIDIA's grammar. The message names
 * the file (when known), the config, the item index and the key, for example {@code default.yaml:
 * config "all-1g.10gb", item 0: unknown key "mig-device"}. The command line exits with status 2 on
 * it.
 */
public final class ConfigFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message where in the file and what is wrong
   * @param cause the underlying failure, or null
   */
  public ConfigFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
