package io.migd.cli;

/** Exit statuses of the one-shot commands (DESIGN.md section 7). */
final class ExitStatus {
  /** Done, matching, reachable. */
  static final int OK = 0;

  /** Not reached or not matching. */
  static final int NOT_REACHED = 1;

  /** Bad usage or an invalid config file. */
  static final int USAGE = 2;

  /** Environment: NVML missing, no permission, state dir locked. */
  static final int ENVIRONMENT = 3;

  private ExitStatus() {}
}
