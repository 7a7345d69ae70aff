package io.migd.app;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
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
          java.nio.ByteBuffer.wrap(
              (ProcessHandle.current().pid() + "\n")
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      return new Attempt.Acquired(new StateLock(channel, lock));
    } catch (OverlappingFileLockException e) {
      channel.close();
      return new Attempt.HeldElsewhere(file);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("releasing " + FILE_NAME, e);
    }
  }
}
