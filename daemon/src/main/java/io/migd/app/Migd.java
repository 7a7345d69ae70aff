package io.migd.app;

import io.migd.cli.MigdCommand;

/** The {@code migd} executable: {@code serve} runs the daemon, other commands run once and exit. */
public final class Migd {
  private Migd() {}

  /** Runs a command; exits with its status unless it is the daemon. */
  public static void main(String[] args) {
    int status = MigdCommand.run(args);
    if (status != MigdCommand.KEEP_RUNNING) {
      System.exit(status);
    }
  }
}
