package io.migd.cli;

import io.migd.app.ConfigFiles;
import io.migd.app.MigdApplication;
import io.migd.app.MigdProperties;
import io.migd.app.PathProperties;
import io.migd.app.StateLock;
import io.migd.profiles.GpuModelCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  /**
   * Spring Boot reports a failed start as a banner or a stack trace; migd prints one line instead
   * (see {@link Failure}). Defaults, so {@code --logging.level...} can show them again.
   */
  private static final Map<String, Object> QUIET_START_FAILURE =
      Map.of(
          "logging.level.org.springframework.boot.SpringApplication", "OFF",
          "logging.level.org.springframework.boot.diagnostics.LoggingFailureAnalysisReporter",
              "OFF");

  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new ArrayList<>();
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    var commandLine = spec.commandLine();
    var args = common.withProperties(propertyArgs).propertyArgs(commandLine);
    checkBeforeStart(common.bind(commandLine));
    var application = new SpringApplication(MigdApplication.class);
    application.setDefaultProperties(QUIET_START_FAILURE);
    application.addListeners(new LateRefusalExit());
    try {
      application.run(args.toArray(String[]::new));
      return MigdCommand.KEEP_RUNNING;
    } catch (RuntimeException e) {
      return MigdCommand.report(Failure.of(e), e, commandLine.getErr());
    }
  }

  /**
   * Standalone, the config file is checked before Spring starts, so a missing or invalid one is one
   * line with exit 2 and nothing else runs; on a Kubernetes node ({@code NODE_NAME} set) the daemon
   * starts anyway and reports the file's problem as the node's failed state. The state lock is the
   * daemon's to take ({@link StateLock.UnavailableException} is 3). Every path property the
   * surfaces use is checked first ({@link PathProperties}).
   */
  private static void checkBeforeStart(MigdProperties properties) {
    PathProperties.check(properties);
    String nodeName = System.getenv("NODE_NAME");
    if (nodeName == null || nodeName.isBlank()) {
      ConfigFiles.load(properties.configFile(), GpuModelCatalog.builtIn());
    }
  }
}
