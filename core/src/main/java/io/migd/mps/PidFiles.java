package io.migd.mps;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control daemons' pid files, believed only when the process named is the daemon: alive,
 * started with {@code -d} (when its arguments can be read), and started no later than the file was
 * written. A pid the kernel reused after the daemon died names a process started after the file
 * (issue 17: such a process was adopted as the daemon).
 */
final class PidFiles {
  private static final Logger log = LoggerFactory.getLogger(PidFiles.class);

  /**
   * How much later than its pid file a daemon may seem to have started: the JDK derives a start
   * time from clock ticks since a boot time known to the second.
   */
  private static final Duration START_PRECISION = Duration.ofSeconds(2);

  private final MpsPaths paths;

  PidFiles(MpsPaths paths) {
    this.paths = paths;
  }

  /**
   * The pid in the pid file of {@code uuid}'s daemon; empty when there is none or it is garbled.
   */
  Optional<Long> read(String uuid) {
    try {
      String text = Files.readString(paths.pidFile(uuid)).strip();
      return text.matches("[0-9]{1,18}") ? Optional.of(Long.parseLong(text)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code pid} is the control daemon of {@code uuid}. */
  boolean namesDaemon(String uuid, long pid) {
    Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
    if (process.isEmpty() || !process.get().isAlive()) {
      return false;
    }
    ProcessHandle.Info info = process.get().info();
    if (info.arguments().isPresent() && !Arrays.asList(info.arguments().get()).contains("-d")) {
      return false;
    }
    Optional<Instant> written = written(uuid);
    return info.startInstant().isEmpty()
        || written.isEmpty()
        || !info.startInstant().get().isAfter(written.get().plus(START_PRECISION));
  }

  /** Removes a pid file naming a process that is not the daemon: it would stop a start. */
  void removeStale(String uuid) {
    Optional<Long> pid = read(uuid);
    if (pid.isEmpty() || namesDaemon(uuid, pid.get())) {
      return;
    }
    try {
      Files.deleteIfExists(paths.pidFile(uuid));
      log.info(
          "mps uuid={} removed the stale {} (pid {} is not its control daemon)",
          uuid,
          paths.pidFile(uuid),
          pid.get());
    } catch (IOException e) {
      log.warn("mps uuid={} cannot remove the stale {}: {}", uuid, paths.pidFile(uuid), e);
    }
  }

  private Optional<Instant> written(String uuid) {
    try {
      return Optional.of(Files.getLastModifiedTime(paths.pidFile(uuid)).toInstant());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static boolean alive(long pid) {
    return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
