package io.migd.cli;

/** The machine is not as a command needs it (state dir not writable, lock held): exit 3. */
final class EnvironmentException extends RuntimeException {
  EnvironmentException(String message, Throwable cause) {
    super(message, cause);
  }
}
