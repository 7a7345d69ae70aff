package io.migd.app;

import io.migd.reconcile.RebootPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code migd.reboot-command} when only a reboot applies a MIG mode, at most once per intent
 * generation; the generation is recorded in the state directory first, so a reboot loop cannot
 * happen even if the node comes back with the mode still pending.
 */
final class CommandReboot implements RebootPolicy {
  private static final Logger log = LoggerFactory.getLogger(CommandReboot.class);
  private static final String FILE_NAME = "reboot-requested-generation";

  private final boolean enabled;
  private final String command;
  private final Path record;

  CommandReboot(MigdProperties properties) {
    this.enabled = properties.reboot().enabled();
    this.command = properties.reboot().command();
    this.record = properties.stateDir().resolve(FILE_NAME);
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public synchronized boolean requestReboot(long generation) {
    try {
      if (Files.exists(record)
          && Files.readString(record).strip().equals(Long.toString(generation))) {
        return false;
      }
      Path temp = record.resolveSibling(FILE_NAME + ".tmp");
      Files.writeString(temp, Long.toString(generation));
      Files.move(temp, record, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("recording the reboot request in " + record, e);
    }
    log.warn(
        "rebooting the node to apply a pending MIG mode generation={} command=\"{}\"",
        generation,
        command);
    try {
      new ProcessBuilder(command.trim().split("\\s+")).inheritIO().start();
    } catch (IOException e) {
      log.error("reboot command failed command=\"{}\" error=\"{}\"", command, e.getMessage());
    }
    return true;
  }
}
