package io.migd.mps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemons an earlier migd left running, found by their pid files under {@code migd.mps.root}. A
 * pid file is believed only when the process it names is the control daemon (a reused pid is not
 * adopted). Reads files only; the caller records what it finds.
 */
final class AdoptableDaemons {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsPaths paths;
  private final PidFiles pidFiles;

  AdoptableDaemons(MpsPaths paths, PidFiles pidFiles) {
    this.paths = paths;
    this.pidFiles = pidFiles;
  }

  /** The daemons found running, by device UUID, with their pid. */
  Map<String, Long> find() {
    var found = new LinkedHashMap<String, Long>();
    if (!Files.isDirectory(paths.root())) {
      return found;
    }
    try (var dirs = Files.list(paths.root())) {
      for (Path dir : dirs.toList()) {
        String uuid = dir.getFileName().toString();
        pidFiles
            .read(uuid)
            .ifPresent(
                pid -> {
                  if (pidFiles.namesDaemon(uuid, pid)) {
                    found.put(uuid, pid);
                    log.info("mps uuid={} pid={} found running; adopting it", uuid, pid);
                  } else if (PidFiles.alive(pid)) {
                    log.info(
                        "mps uuid={} pid={} of {} is not its control daemon (a reused pid); not"
                            + " adopted",
                        uuid,
                        pid,
                        paths.pidFile(uuid));
                  }
                });
      }
    } catch (IOException e) {
      log.warn("mps cannot list {}: {}", paths.root(), e.toString());
    }
    return found;
  }
}
