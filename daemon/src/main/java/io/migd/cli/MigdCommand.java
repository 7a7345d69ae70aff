package io.migd.cli;

import io.migd.nvml.NvmlLoadException;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.ProfileNameException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code migd} command line: DESIGN.md section 7. */
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
      PlanCommand.class
    },
    exitCodeOnInvalidInput = ExitStatus.USAGE,
    exitCodeOnExecutionException = ExitStatus.ENVIRONMENT)
public final class MigdCommand implements Runnable {
  /** Returned by {@code serve}: the daemon keeps running, the process must not exit. */
  public static final int KEEP_RUNNING = -1;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Parses and runs one command; returns its exit status or {@link #KEEP_RUNNING}. */
  public static int run(String[] args) {
    return new CommandLine(new MigdCommand())
        .setExecutionExceptionHandler(MigdCommand::handle)
        .execute(args);
  }

  /**
   * Expected failures are one sentence on stderr with their exit status (DESIGN.md section 7);
   * anything else is a bug and keeps its stack trace.
   */
  private static int handle(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    var err = commandLine.getErr();
    switch (e) {
      case NvmlLoadException load -> {
        err.println("migd: " + load.getMessage());
        return ExitStatus.ENVIRONMENT;
      }
      case EnvironmentException environment -> {
        err.println("migd: " + environment.getMessage());
        return ExitStatus.ENVIRONMENT;
      }
      case ConfigFileException config -> {
        err.println("migd: " + config.getMessage());
        return ExitStatus.USAGE;
      }
      case ProfileNameException name -> {
        err.println("migd: " + name.getMessage());
        return ExitStatus.USAGE;
      }
      default -> {
        err.println("migd: " + commandLine.getCommandName() + " failed: " + e);
        e.printStackTrace(err);
        return ExitStatus.NOT_REACHED;
      }
    }
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required: serve, apply, assert, export, plan");
  }
}
