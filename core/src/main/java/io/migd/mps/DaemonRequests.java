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
    return content(device.spec());
  }

  /**
   * The request for a daemon as {@code spec} says, one key per line, as the supervisor reads it.
   */
  String content(DaemonSpec spec) {
    var limits = new StringBuilder();
    for (DaemonSpec.Limit limit : spec.limits()) {
      switch (limit) {
        case DaemonSpec.Limit.ActiveThreads(var percent) ->
            limits.append("  \"activeThreadPercentage\": ").append(percent).append(",\n");
        case DaemonSpec.Limit.PinnedMemory(var mib) ->
            limits.append("  \"pinnedMemoryLimitMib\": ").append(mib).append(",\n");
      }
    }
    return """
        {
          "device": "%s",
          "multiUser": %s,
          "wholeGpu": %s,
        %s  "shmSizeBytes": %d
        }
        """
        .formatted(spec.device(), spec.multiUser(), spec.wholeGpu(), limits, shmSizeBytes);
  }

  /** Writes the request for {@code device} unless the file holds it already. */
  void request(MpsDevice device) {
    request(device.uuid(), device.spec());
  }

  /** Writes the request of daemon {@code id} unless the file holds it already. */
  void request(String id, DaemonSpec spec) {
    Path file = paths.daemonFile(id);
    String content = content(spec);
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

  /**
   * The devices with a request under the root, by UUID; the daemons of DRA claims ({@link
   * ClaimDaemons}) are left out: their claims own them.
   */
  List<String> requested() throws IOException {
    var ids = new ArrayList<String>();
    if (!Files.isDirectory(paths.root())) {
      return ids;
    }
    try (var dirs = Files.list(paths.root())) {
      for (Path dir : dirs.toList()) {
        if (Files.isRegularFile(dir.resolve("daemon.json"))
            && !dir.getFileName().toString().startsWith(ClaimDaemons.PREFIX)) {
          ids.add(dir.getFileName().toString());
        }
      }
    }
    return ids;
  }
}
