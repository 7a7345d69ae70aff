package io.migd.cli;

import io.migd.app.MigdApplication;
import io.migd.nvml.NvmlLoadException;
import java.util.List;
import java.util.concurrent.Callable;
import org.springframework.boot.SpringApplication;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code migd serve}: the daemon, with Spring Boot properties as {@code --name=value}. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run the daemon (web server, reconciler, device plugin).")
final class ServeCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new java.util.ArrayList<>();
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    try {
      SpringApplication.run(
          MigdApplication.class,
          common
              .withProperties(propertyArgs)
              .propertyArgs(spec.commandLine())
              .toArray(String[]::new));
      return MigdCommand.KEEP_RUNNING;
    } catch (RuntimeException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof NvmlLoadException) {
          // NvmlLoadFailureAnalyzer has reported it
          return ExitStatus.ENVIRONMENT;
        }
      }
      throw e;
    }
  }
}
