package io.migd.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock in {@code migd.state-dir} that {@code serve} holds for its life, so a one-shot {@code
 * apply} does not fight a running daemon that would undo it.
 */
public final class StateLock implements AutoCloseable {
  /** The lock file's name in the state directory. */
  public static final String FILE_NAME = "migd.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private StateLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** What trying the lock found. */
  public sealed interface Attempt {
    /** This process holds the lock now. */
    record Acquired(StateLock lock) implements Attempt {}

    /** Another process holds it. */
    record HeldElsewhere(Path file) implements Attempt {}
  }

  /** Takes the lock, creating the directory; fails with the reason when it cannot. */
  public static Attempt tryAcquire(Path stateDir) throws IOException {
    Files.createDirectories(stateDir);
    Path file = stateDir.resolve(FILE_NAME);
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        return new Attempt.HeldElsewhere(file);
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
      return new Attempt.Acquired(new StateLock(channel, lock));
    } catch (OverlappingFileLockException e) {
      channel.close();
      return new Attempt.HeldElsewhere(file);
    }
  }

  /** The lock cannot be taken: another process holds it, or the directory is unusable. */
  public static final class UnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Takes the lock for a daemon's life.
   *
   * @throws UnavailableException saying who holds it, or why the directory is unusable
   */
  public static StateLock acquire(Path stateDir) {
    Attempt attempt;
    try {
      attempt = tryAcquire(stateDir);
    } catch (IOException e) {
      throw new UnavailableException(unusable(stateDir, e), e);
    }
    return switch (attempt) {
      case Attempt.Acquired(var lock) -> lock;
      case Attempt.HeldElsewhere(var file) ->
          throw new UnavailableException(
              "another migd holds "
                  + file
                  + " (pid "
                  + holder(file)
                  + "); only one daemon may run per node",
              null);
    };
  }

  /**
   * Why the state directory cannot hold the lock, and the remedy, in one sentence.
   *
   * @param stateDir the configured state directory
   * @param e what failed
   */
  public static String unusable(Path stateDir, IOException e) {
    String why =
        switch (e) {
          case AccessDeniedException denied -> "permission denied on " + denied.getFile();
          case FileAlreadyExistsException file -> file.getFile() + " is not a directory";
          case NoSuchFileException missing -> "cannot create " + missing.getFile();
          case FileSystemException fs when fs.getReason() != null ->
              fs.getReason() + ": " + fs.getFile();
          default -> e.toString();
        };
    return "cannot use the state directory "
        + stateDir
        + " ("
        + why
        + "); run migd as root or set migd.state-dir (env MIGD_STATEDIR) to a writable directory";
  }

  /** The process id recorded in a lock file, or "unknown" when it cannot be read. */
  public static String holder(Path lockFile) {
    try {
      String pid = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
      return pid.isEmpty() ? "unknown" : pid;
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("releasing " + FILE_NAME, e);
    }
  }
}
