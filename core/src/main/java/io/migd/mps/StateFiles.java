package io.migd.mps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * The supervisor's state files, their pid believed only when the process named is the daemon:
 * alive, run with {@code -f} (when its arguments can be read), and started no later than the file
 * was written. A pid the kernel reused after the daemon died names a process started after the file
 * (issue 17: such a process was adopted as the daemon).
 */
final class StateFiles {
  /**
   * How much later than its state file a daemon may seem to have started: the JDK derives a start
   * time from clock ticks since a boot time known to the second.
   */
  private static final Duration START_PRECISION = Duration.ofSeconds(2);

  /** How often the state is read while waiting for the supervisor. */
  private static final Duration POLL = Duration.ofMillis(100);

  private final MpsPaths paths;

  StateFiles(MpsPaths paths) {
    this.paths = paths;
  }

  /** What the supervisor says of the daemon of {@code uuid}. */
  SupervisorState read(String uuid) {
    return SupervisorState.read(paths.stateFile(uuid));
  }

  /** The pid of the daemon of {@code uuid} when the state says it runs and names the daemon. */
  Optional<Long> runningDaemon(String uuid) {
    return read(uuid) instanceof SupervisorState.Running(long pid) && namesDaemon(uuid, pid)
        ? Optional.of(pid)
        : Optional.empty();
  }

  /**
   * Waits until the state of daemon {@code id} names its running daemon, at most until {@code
   * deadline}; empty when it does not by then.
   */
  Optional<Long> awaitRunning(String id, Instant deadline) {
    Optional<Long> pid = runningDaemon(id);
    while (pid.isEmpty() && Instant.now().isBefore(deadline)) {
      pause();
      pid = runningDaemon(id);
    }
    return pid;
  }

  /**
   * Waits until the supervisor says daemon {@code id} is {@code stopped} (its compute mode
   * restored, its shm unmounted), at most {@code timeout}; whether it did.
   */
  boolean awaitStopped(String id, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (!isStopped(id) && Instant.now().isBefore(deadline)) {
      pause();
    }
    return isStopped(id);
  }

  private boolean isStopped(String id) {
    return read(id) instanceof SupervisorState.NotRunning(var said) && said.equals("stopped");
  }

  private static void pause() {
    try {
      Thread.sleep(POLL);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MpsControl.MpsException("interrupted waiting for an MPS daemon", e);
    }
  }

  /** Whether {@code pid} is the control daemon of {@code uuid}. */
  boolean namesDaemon(String uuid, long pid) {
    Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
    if (process.isEmpty() || !process.get().isAlive() || zombie(pid)) {
      return false;
    }
    ProcessHandle.Info info = process.get().info();
    if (info.arguments().isPresent() && !Arrays.asList(info.arguments().get()).contains("-f")) {
      return false;
    }
    Optional<Instant> written = written(uuid);
    return info.startInstant().isEmpty()
        || written.isEmpty()
        || !info.startInstant().get().isAfter(written.get().plus(START_PRECISION));
  }

  /**
   * Whether {@code pid} has exited and waits for its parent to reap it: the JDK calls such a
   * process alive, but a daemon whose supervisor is stuck is gone.
   */
  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int end = stat.lastIndexOf(')');
      return end > 0 && stat.length() > end + 2 && stat.charAt(end + 2) == 'Z';
    } catch (IOException e) {
      return false;
    }
  }

  private Optional<Instant> written(String uuid) {
    try {
      return Optional.of(Files.getLastModifiedTime(paths.stateFile(uuid)).toInstant());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
