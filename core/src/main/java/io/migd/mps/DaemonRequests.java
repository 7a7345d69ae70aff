package io.migd.mps;

import io.migd.reconcile.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * migd's side of the file protocol with the {@code -mps} DaemonSet's supervisor: {@code
 * <root>/<uuid>/daemon.json} asks for a daemon (its device, {@code -M} or not, whether it is a
 * whole GPU, its limits and its shm size), one key per line; removing it stops the daemon.
 */
final class DaemonRequests {
  private final MpsPaths paths;
  private final long shmSizeBytes;

  DaemonRequests(MpsPaths paths, long shmSizeBytes) {
    this.paths = paths;
    this.shmSizeBytes = shmSizeBytes;
  }

  /** The request for {@code device}, as the supervisor reads it. */
  String content(MpsDevice device) {
    return """
        {
          "device": "%s",
          "multiUser": %s,
          "wholeGpu": %s,
          "activeThreadPercentage": %d,
          "pinnedMemoryLimitMib": %d,
          "shmSizeBytes": %d
        }
        """
        .formatted(
            device.uuid(),
            false,
            device.isWholeGpu(),
            device.activeThreadPercentage(),
            device.pinnedMemoryLimitMib(),
            shmSizeBytes);
  }

  /** Writes the request for {@code device} unless the file holds it already. */
  void request(MpsDevice device) {
    Path file = paths.daemonFile(device.uuid());
    String content = content(device);
    try {
      if (Files.exists(file) && Files.readString(file).equals(content)) {
        return;
      }
      Files.createDirectories(file.getParent());
      AtomicFiles.writeForThisBoot(file, content);
    } catch (IOException e) {
      throw new MpsControl.MpsException("writing " + file + ": " + e, e);
    }
  }

  /** Removes the request of {@code uuid}: the supervisor stops its daemon. */
  void withdraw(String uuid) {
    try {
      Files.deleteIfExists(paths.daemonFile(uuid));
    } catch (IOException e) {
      throw new MpsControl.MpsException("removing " + paths.daemonFile(uuid) + ": " + e, e);
    }
  }

  /** The devices with a request under the root, by UUID. */
  List<String> requested() throws IOException {
    var ids = new ArrayList<String>();
    if (!Files.isDirectory(paths.root())) {
      return ids;
    }
    try (var dirs = Files.list(paths.root())) {
      for (Path dir : dirs.toList()) {
        if (Files.isRegularFile(dir.resolve("daemon.json"))) {
          ids.add(dir.getFileName().toString());
        }
      }
    }
    return ids;
  }
}
