package io.migd.mps;

import io.migd.command.ExternalCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs the control command as a child process with {@link ExternalCommand}, its argument list never
 * split on whitespace.
 */
public final class ProcessMpsControl implements MpsControl {
  private final List<String> command;
  private final Duration timeout;

  /** Runs {@code command}, killing a run that takes longer than {@code timeout}. */
  public ProcessMpsControl(List<String> command, Duration timeout) {
    this.command = List.copyOf(command);
    this.timeout = timeout;
  }

  @Override
  public List<String> send(Map<String, String> environment, List<String> commands) {
    var ran =
        ran(ExternalCommand.of(command, timeout).withEnvironment(environment).withInput(commands));
    return ((ExternalCommand.Ran.Exited) ran).stdout().lines().toList();
  }

  private static ExternalCommand.Ran ran(ExternalCommand command) {
    ExternalCommand.Ran ran = command.run();
    if (!ran.succeeded()) {
      throw new MpsException(ran.describe(), null);
    }
    return ran;
  }
}
