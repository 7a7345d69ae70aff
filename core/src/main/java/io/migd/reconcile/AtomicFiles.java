package io.migd.reconcile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The two ways migd replaces a file it must find whole after a crash: {@link #write} for what must
 * also outlive a power cut or a reboot (the intent, the reboot record, the last valid config), and
 * {@link #writeForThisBoot} for what is void after a reboot anyway (the DRA checkpoint, which a
 * different boot id drops, and the per-claim CDI specs, which the kubelet asks for again). Both
 * write a temp file beside it and rename it over the old one, so a reader, or migd after a crash of
 * its own process, finds the old content or the new, never a mix.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Replaces {@code file} with {@code content} (UTF-8), atomically and durably: the temp file and
   * then the directory are flushed to the disk, so the new content outlives a power cut.
   */
  public static void write(Path file, String content) throws IOException {
    replace(file, content, true);
  }

  /**
   * Replaces {@code file} with {@code content} (UTF-8), atomically, without waiting for the disk: a
   * crash of migd (a kill, the OOM killer, a restarted container) leaves the old content or the
   * new, as the kernel's page cache holds it; a power cut or a kernel crash may lose the change,
   * which only a reboot follows. For files whose content is void after a reboot: waiting for the
   * disk would buy nothing, and on a busy node a flush commits every process's writes (40–120 ms
   * measured in {@code bench/README.md}, PrepareLatency).
   */
  public static void writeForThisBoot(Path file, String content) throws IOException {
    replace(file, content, false);
  }

  private static void replace(Path file, String content, boolean durable) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = dir.resolve(file.getFileName() + ".tmp");
    try (var channel =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      var bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      if (durable) {
        channel.force(true);
      }
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    if (durable) {
      try (var directory = FileChannel.open(dir, StandardOpenOption.READ)) {
        directory.force(true);
      }
    }
  }
}
