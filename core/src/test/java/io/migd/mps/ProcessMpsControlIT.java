package io.migd.mps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The control command as a real child process: stdin, stdout, exit status and environment. */
class ProcessMpsControlIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void sendsEachCommandOnALineAndReturnsWhatItPrinted() {
    var control =
        new ProcessMpsControl(List.of("sh", "-c", "cat; echo \"$CUDA_VISIBLE_DEVICES\""), TIMEOUT);

    var out =
        control.send(Map.of("CUDA_VISIBLE_DEVICES", "GPU-x"), List.of("get_server_list", "quit"));

    assertThat(out).containsExactly("get_server_list", "quit", "GPU-x");
  }

  @Test
  void aFailedCommandSaysWhatItWasAskedAndWhatItPrinted() {
    var control =
        new ProcessMpsControl(
            List.of(
                "sh", "-c", "cat >/dev/null; echo 'Cannot find MPS control daemon' >&2; exit 1"),
            TIMEOUT);

    assertThatThrownBy(() -> control.send(Map.of(), List.of("quit")))
        .isInstanceOf(MpsControl.MpsException.class)
        .hasMessageContaining("stdin: quit")
        .hasMessageContaining("exited 1")
        .hasMessageContaining("Cannot find MPS control daemon");
  }

  @Test
  void aDaemonThatKeepsItsOutputOpenDoesNotHoldTheStartAndAFailedStartShowsItsOutput() {
    // $1 is the -d migd adds; the background child keeps the start's stdout and stderr open
    var daemon =
        new ProcessMpsControl(
            List.of("sh", "-c", "test \"$1\" = -d && (sleep 2 &) && echo started", "sh"), TIMEOUT);
    daemon.startDaemon(Map.of());

    var failing =
        new ProcessMpsControl(List.of("sh", "-c", "echo \"no GPU for $1\"; exit 3", "sh"), TIMEOUT);
    assertThatThrownBy(() -> failing.startDaemon(Map.of()))
        .isInstanceOf(MpsControl.MpsException.class)
        .hasMessageContaining("exited 3")
        .hasMessageContaining("no GPU for -d");
    assertThatThrownBy(
            () ->
                new ProcessMpsControl(List.of("/nonexistent/mps-control"), TIMEOUT)
                    .startDaemon(Map.of()))
        .isInstanceOf(MpsControl.MpsException.class)
        .hasMessageContaining("could not run /nonexistent/mps-control -d");
  }
}
