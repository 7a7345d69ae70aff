package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The alert rules as Prometheus reads them: {@code promtool check rules} and the firing and silent
 * cases of {@code tests/alerts.test.yaml}. Skipped with one line when promtool is not installed
 * (Debian's {@code prometheus} package brings it; {@code .ci/run} installs it).
 */
class AlertRulesTest {
  private static final Path PROMTOOL =
      List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)).stream()
          .map(dir -> Path.of(dir, "promtool"))
          .filter(Files::isExecutable)
          .findFirst()
          .orElse(null);
  private static final String NO_PROMTOOL =
      "promtool is not on the PATH: the alert rules are not checked (apt-get install prometheus)";

  static {
    if (PROMTOOL == null) {
      // Surefire's summary counts skipped tests without their reason: say it once on the console.
      System.err.println("AlertRulesTest skipped: " + NO_PROMTOOL);
    }
  }

  @BeforeEach
  void needsPromtool() {
    assumeTrue(PROMTOOL != null, NO_PROMTOOL);
  }

  @Test
  void promtoolAcceptsTheRules() throws Exception {
    var run = run("check", "rules", Chart.DIR.resolve("files/alerts.yaml").toString());

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS: 4 rules found");
  }

  @Test
  void theRulesFireAndStaySilentAsTheTestCasesSay() throws Exception {
    var run = run("test", "rules", Chart.DIR.resolve("tests/alerts.test.yaml").toString());

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS");
  }

  private record Run(int status, String output) {}

  private static Run run(String... args) throws IOException, InterruptedException {
    var command = new java.util.ArrayList<String>();
    command.add(PROMTOOL.toString());
    command.addAll(List.of(args));
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("promtool did not end within 60 s: " + output);
    }
    return new Run(process.exitValue(), output);
  }
}
