package io.migd.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one process runner, with real child processes. */
class ExternalCommandIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void givesItsEnvironmentAndInputAndKeepsWhatItPrintedOnEachStream() {
    var ran =
        ExternalCommand.of(
                List.of("sh", "-c", "cat; echo \"$WHO\"; echo oops >&2; exit 4"), TIMEOUT)
            .withEnvironment(Map.of("WHO", "migd"))
            .withInput(List.of("get_server_list", "quit"))
            .run();

    assertThat(ran).isInstanceOf(ExternalCommand.Ran.Exited.class);
    var exited = (ExternalCommand.Ran.Exited) ran;
    assertThat(exited.status()).isEqualTo(4);
    assertThat(exited.stdout().lines()).containsExactly("get_server_list", "quit", "migd");
    assertThat(exited.stderr()).isEqualTo("oops\n");
    assertThat(ran.succeeded()).isFalse();
    assertThat(ran.describe())
        .startsWith("sh -c")
        .contains("(stdin: get_server_list; quit) exited 4: oops");
  }

  @Test
  void keepsTheStartOfALargeOutputAndEnds() {
    var ran =
        ExternalCommand.of(List.of("sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' x"), TIMEOUT)
            .run();

    assertThat(ran.succeeded()).isTrue();
    assertThat(((ExternalCommand.Ran.Exited) ran).stdout())
        .hasSize(ExternalCommand.KEPT_OUTPUT)
        .containsOnlyOnce("x".repeat(ExternalCommand.KEPT_OUTPUT));
  }

  @Test
  void aCommandStillRunningAtItsTimeoutIsKilledWithWhatItStarted() throws Exception {
    Path child = dir.resolve("child.pid");
    var ran =
        ExternalCommand.of(
                List.of("sh", "-c", "sleep 600 & echo $! > " + child + "; echo waiting; wait"),
                Duration.ofMillis(500))
            .run();

    assertThat(ran).isInstanceOf(ExternalCommand.Ran.TimedOut.class);
    assertThat(ran.describe()).contains("did not finish in", "was killed", "waiting");
    long pid = Long.parseLong(Files.readString(child).strip());
    await().atMost(TIMEOUT).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void aMissingProgramIsNotStartedAndSaysWhich() {
    var ran = ExternalCommand.of(List.of("/nonexistent/reset", "-r"), TIMEOUT).run();

    assertThat(ran).isInstanceOf(ExternalCommand.Ran.NotStarted.class);
    assertThat(ran.describe()).startsWith("could not run /nonexistent/reset -r: ");
  }
}
