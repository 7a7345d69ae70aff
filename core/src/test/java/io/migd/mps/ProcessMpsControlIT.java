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
  void aCommandThatCannotRunIsNamed() {
    assertThatThrownBy(
            () ->
                new ProcessMpsControl(List.of("/nonexistent/mps-control"), TIMEOUT)
                    .send(Map.of(), List.of("get_server_list")))
        .isInstanceOf(MpsControl.MpsException.class)
        .hasMessageContaining("/nonexistent/mps-control");
  }
}
