package io.migd.app;

import io.migd.command.ExternalCommand;
import io.migd.kubelet.KubeletSurface;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates the CDI specs with {@code migd.cdi.refresh-command} before new devices are advertised
 * (docs/contract.md, CDI): a command that cannot start, times out or exits non-zero throws, with
 * its output, and the kubelet surface logs it.
 */
final class CommandCdiRefresh implements KubeletSurface.CdiRefresh {
  private static final Logger log = LoggerFactory.getLogger(CommandCdiRefresh.class);

  private final ExternalCommand command;

  CommandCdiRefresh(List<String> command, Duration timeout) {
    this.command = ExternalCommand.of(command, timeout);
  }

  /** The refresh {@code properties} ask for: none when CDI is off. */
  static KubeletSurface.CdiRefresh of(MigdProperties properties, Duration timeout) {
    return properties.cdi().enabled()
        ? new CommandCdiRefresh(properties.cdi().refreshCommand(), timeout)
        : KubeletSurface.CdiRefresh.NONE;
  }

  @Override
  public void refresh() {
    ExternalCommand.Ran ran = command.run();
    if (!ran.succeeded()) {
      throw new IllegalStateException(ran.describe());
    }
    log.info("CDI specs refreshed: {}", command.display());
  }
}
