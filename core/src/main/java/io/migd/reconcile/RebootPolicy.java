package io.migd.reconcile;

/**
 * What to do when only a reboot applies a pending MIG mode ({@code RESET_REQUIRED}): with {@code
 * migd.reboot.enabled}, run {@code migd.reboot.command} at most once per intent generation;
 * otherwise report {@code failed} with the reason.
 */
public interface RebootPolicy {
  /** Never reboots. */
  RebootPolicy DISABLED =
      new RebootPolicy() {
        @Override
        public boolean enabled() {
          return false;
        }

        @Override
        public Request requestReboot(long generation) {
          return new Request.CommandFailed("reboots are disabled");
        }
      };

  /** What asking for a reboot did. */
  sealed interface Request {
    /** The reboot command ran and exited 0; the node is going down. */
    record Started(String output) implements Request {}

    /** A reboot was already asked for this generation and went through; not asked again. */
    record AlreadyRequested() implements Request {}

    /**
     * The reboot command could not start or exited non-zero ({@code detail} holds its output), now
     * or earlier for this generation; it is not run again for the same generation.
     */
    record CommandFailed(String detail) implements Request {}
  }

  /** Whether reboots are allowed at all. */
  boolean enabled();

  /** Asks for a reboot for this generation, at most once per generation. */
  Request requestReboot(long generation);
}
