package io.migd.cli;

import java.io.PrintWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code migd} command line: serve, apply, assert, export, plan, status. */
@Command(
    name = "migd",
    mixinStandardHelpOptions = true,
    description =
        "Per-node GPU partition daemon: MIG layouts, time-slicing, kubelet device plugin.",
    subcommands = {
      ServeCommand.class,
      ApplyCommand.class,
      AssertCommand.class,
      ExportCommand.class,
      PlanCommand.class,
      StatusCommand.class
    },
    exitCodeOnInvalidInput = ExitStatus.USAGE,
    exitCodeOnExecutionException = ExitStatus.INTERNAL)
public final class MigdCommand implements Runnable {
  /** Returned by {@code serve}: the daemon keeps running, the process must not exit. */
  public static final int KEEP_RUNNING = -1;

  private static final Logger log = LoggerFactory.getLogger(MigdCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Parses and runs one command; returns its exit status or {@link #KEEP_RUNNING}. */
  public static int run(String[] args) {
    return commandLine().execute(args);
  }

  /** The command line with migd's handling of usage errors and failures. */
  static CommandLine commandLine() {
    return new CommandLine(new MigdCommand())
        .setParameterExceptionHandler(MigdCommand::usageError)
        .setExecutionExceptionHandler(
            (e, commandLine, parseResult) -> report(Failure.of(e), e, commandLine.getErr()));
  }

  /**
   * Prints one line for a failure and returns its exit status: an expected condition never shows a
   * stack trace, and an internal error's goes to the debug log only.
   */
  static int report(Failure failure, Throwable thrown, PrintWriter err) {
    if (!failure.expected()) {
      log.debug("internal error", thrown);
    }
    err.println("migd: " + failure.message());
    err.flush();
    return failure.exitStatus();
  }

  /** A usage error is one line naming the problem and where help is, not the whole usage text. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    var err = commandLine.getErr();
    err.println(
        "migd: "
            + e.getMessage()
            + " (see '"
            + commandLine.getCommandSpec().qualifiedName()
            + " --help')");
    err.flush();
    return ExitStatus.USAGE;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required: serve, apply, assert, export, plan, status");
  }
}
