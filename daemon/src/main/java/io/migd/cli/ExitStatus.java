package io.migd.cli;

/** Exit statuses of every command, {@code serve} included, when it ends. */
final class ExitStatus {
  /** Done, matching, reachable. */
  static final int OK = 0;

  /** Not reached or not matching (blocked, infeasible, failed, rebooting). */
  static final int NOT_REACHED = 1;

  /** Bad usage, or a config file that is missing, unreadable or invalid. */
  static final int USAGE = 2;

  /**
   * Environment: NVML missing, NVML {@code NO_PERMISSION}, native access off, state dir locked or
   * unwritable.
   */
  static final int ENVIRONMENT = 3;

  /** An internal error: a bug in migd (sysexits' {@code EX_SOFTWARE}). */
  static final int INTERNAL = 70;

  private ExitStatus() {}
}
