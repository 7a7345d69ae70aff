package io.migd.app;

import io.migd.command.ExternalCommand;
import io.migd.reconcile.AtomicFiles;
import io.migd.reconcile.RebootPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code migd.reboot.command} when only a reboot applies a MIG mode, at most once per intent
 * generation. The generation is recorded durably in the state directory before the command runs, so
 * a reboot loop cannot happen even if the node comes back with the mode still pending; a command
 * that fails is recorded with its output and reported again, not run again, for that generation.
 */
final class CommandReboot implements RebootPolicy {
  private static final Logger log = LoggerFactory.getLogger(CommandReboot.class);
  static final String FILE_NAME = "reboot-requested-generation";
  private static final String FAILED = "failed: ";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final boolean enabled;
  private final List<String> command;
  private final Path record;

  CommandReboot(MigdProperties properties) {
    this(properties.reboot().enabled(), properties.reboot().command(), properties.stateDir());
  }

  CommandReboot(boolean enabled, List<String> command, Path stateDir) {
    this.enabled = enabled;
    this.command = List.copyOf(command);
    this.record = stateDir.resolve(FILE_NAME);
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public synchronized Request requestReboot(long generation) {
    try {
      if (Files.exists(record)) {
        List<String> lines = Files.readAllLines(record);
        if (!lines.isEmpty() && lines.getFirst().strip().equals(Long.toString(generation))) {
          return lines.size() > 1 && lines.get(1).startsWith(FAILED)
              ? new Request.CommandFailed(lines.get(1).substring(FAILED.length()))
              : new Request.AlreadyRequested();
        }
      }
      AtomicFiles.write(record, generation + "\n");
    } catch (IOException e) {
      return new Request.CommandFailed(
          "the reboot request could not be recorded in "
              + record
              + " ("
              + e
              + "), so it was not run");
    }
    log.warn(
        "rebooting the node to apply a pending MIG mode generation={} command=\"{}\"",
        generation,
        String.join(" ", command));
    ExternalCommand.Ran ran = ExternalCommand.of(command, TIMEOUT).run();
    if (ran.succeeded()) {
      return new Request.Started(ran.describe());
    }
    String detail = ran.describe().replaceAll("\\s*\\R\\s*", " ");
    log.error("reboot command failed generation={} detail=\"{}\"", generation, detail);
    try {
      AtomicFiles.write(record, generation + "\n" + FAILED + detail + "\n");
    } catch (IOException e) {
      log.error("cannot record the failed reboot in {} error=\"{}\"", record, e.toString());
    }
    return new Request.CommandFailed(detail);
  }
}
