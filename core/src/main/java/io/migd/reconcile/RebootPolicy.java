package io.migd.reconcile;

/**
 * What to do when only a reboot applies a pending MIG mode ({@code RESET_REQUIRED}): with {@code
 * migd.reboot.enabled}, run {@code migd.reboot-command} at most once per intent generation;
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
        public boolean requestReboot(long generation) {
          return false;
        }
      };

  /** Whether reboots are allowed at all. */
  boolean enabled();

  /** Asks for a reboot for this generation; false when one was already asked for it. */
  boolean requestReboot(long generation);
}
