package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlLoadException;
import io.migd.nvml.NvmlReturn;
import io.migd.profiles.ConfigFileException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.BeanCreationException;
import picocli.CommandLine.Command;

/** How a command that throws ends: the exit status and the one line on stderr. */
class MigdCommandTest {

  @Command(name = "broken")
  static final class Broken implements Callable<Integer> {
    private final RuntimeException thrown;

    Broken(RuntimeException thrown) {
      this.thrown = thrown;
    }

    @Override
    public Integer call() {
      throw thrown;
    }
  }

  @Test
  void reportsABugAsOneLineWithStatus70AndNoStackTrace() {
    var err = new StringWriter();
    var commandLine = MigdCommand.commandLine();
    commandLine.addSubcommand(new Broken(new IllegalStateException("invariant broken")));
    commandLine.setErr(new PrintWriter(err));

    int status = commandLine.execute("broken");

    assertThat(status).isEqualTo(70);
    assertThat(err.toString().lines().toList())
        .containsExactly(
            "migd: internal error (a bug in migd): java.lang.IllegalStateException: invariant"
                + " broken; run with MIGD_LOG_LEVEL=DEBUG for the stack trace");
  }

  record Case(String name, RuntimeException thrown, int exitStatus, String line) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    var config = new ConfigFileException("f.yaml: config \"c\", item 0: unknown key \"x\"", null);
    return Stream.of(
        new Case("invalid config", config, 2, "migd: " + config.getMessage()),
        new Case(
            "invalid config wrapped by Spring",
            new BeanCreationException("migConfigFile", "failed", config),
            2,
            "migd: " + config.getMessage()),
        new Case(
            "NVML missing wrapped by Spring",
            new BeanCreationException("nvmlSession", "failed", new NvmlLoadException("no NVML")),
            3,
            "migd: no NVML"),
        new Case(
            "NVML refuses for lack of privilege",
            new NvmlException("nvmlDeviceSetMigMode", NvmlReturn.NO_PERMISSION, "GPU 0"),
            3,
            "MIG changes need root"),
        new Case(
            "another NVML error",
            new NvmlException("nvmlDeviceGetCount_v2", NvmlReturn.UNKNOWN, "node"),
            1,
            "nvmlDeviceGetCount_v2"),
        new Case(
            "the environment",
            new EnvironmentException("state dir locked", null),
            3,
            "migd: state dir locked"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsAnExpectedConditionAsOneLineWithItsStatus(Case c) {
    var err = new StringWriter();
    var commandLine = MigdCommand.commandLine();
    commandLine.addSubcommand(new Broken(c.thrown()));
    commandLine.setErr(new PrintWriter(err));

    int status = commandLine.execute("broken");

    assertThat(status).isEqualTo(c.exitStatus());
    assertThat(err.toString().lines().toList()).singleElement().asString().contains(c.line());
  }

  /** Every command's {@code -o}: an unknown format is refused before anything runs. */
  @ParameterizedTest
  @ValueSource(strings = {"plan", "export"})
  void refusesAnUnknownOutputFormatAsBadUsageNamingTheAcceptedOnes(String command) {
    var out = new StringWriter();
    var err = new StringWriter();
    var commandLine = MigdCommand.commandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));

    int status = commandLine.execute(command, "-o", "xml", "--simulate=A100-SXM4-40GB");

    assertThat(status).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().lines().toList())
        .singleElement()
        .asString()
        .startsWith("migd: ")
        .contains("--output", "xml", "migd " + command + " --help")
        .containsPattern("(text, json|yaml, json)");
  }

  @Test
  void refusesYamlForPlanWhichPrintsTextOrJson() {
    var err = new StringWriter();
    var commandLine = MigdCommand.commandLine();
    commandLine.setErr(new PrintWriter(err));

    int status = commandLine.execute("plan", "-o", "yaml", "--simulate=A100-SXM4-40GB");

    assertThat(status).isEqualTo(2);
    assertThat(err.toString().lines().toList())
        .singleElement()
        .asString()
        .contains("expected one of [text, json]", "but was 'yaml'");
  }
}
