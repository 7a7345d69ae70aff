package io.migd.mps;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemons running when migd starts (the {@code -mps} DaemonSet keeps them across migd's
 * restarts), found by their requests and the supervisor's state files under {@code migd.mps.root}.
 * A state's pid is believed only when the process it names is the control daemon (a reused pid is
 * not adopted). Reads files only; the caller records what it finds.
 */
final class AdoptableDaemons {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsPaths paths;
  private final DaemonRequests requests;
  private final StateFiles states;

  AdoptableDaemons(MpsPaths paths, DaemonRequests requests, StateFiles states) {
    this.paths = paths;
    this.requests = requests;
    this.states = states;
  }

  /** The daemons found running, by device UUID, with their pid. */
  Map<String, Long> find() {
    var found = new LinkedHashMap<String, Long>();
    try {
      for (String uuid : requests.requested()) {
        states
            .runningDaemon(uuid)
            .ifPresentOrElse(
                pid -> {
                  found.put(uuid, pid);
                  log.info("mps uuid={} pid={} found running; adopting it", uuid, pid);
                },
                () ->
                    log.info(
                        "mps uuid={} is requested but its daemon does not run ({}: {})",
                        uuid,
                        paths.stateFile(uuid),
                        states.read(uuid)));
      }
    } catch (IOException e) {
      log.warn("mps cannot list {}: {}", paths.root(), e.toString());
    }
    return found;
  }
}
