package io.migd.mps;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervision step: starts again every daemon whose process is gone (its replicas unhealthy
 * until it runs), then refreshes which processes are MPS servers.
 */
final class DaemonSupervision {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsDaemonState state;
  private final DaemonLifecycle lifecycle;
  private final PidFiles pidFiles;

  DaemonSupervision(MpsDaemonState state, DaemonLifecycle lifecycle, PidFiles pidFiles) {
    this.state = state;
    this.lifecycle = lifecycle;
    this.pidFiles = pidFiles;
  }

  /** One check; the caller holds the lock that {@link DaemonReconciliation} takes turns on. */
  void check() {
    for (RunningDaemon daemon : state.daemons()) {
      String uuid = daemon.device().uuid();
      if (pidFiles.namesDaemon(uuid, daemon.pid())) {
        continue;
      }
      if (!state.removeIfCurrent(uuid, daemon)) {
        continue;
      }
      log.warn("mps uuid={} pid={} is gone; starting it again", uuid, daemon.pid());
      lifecycle.markDown(uuid);
      try {
        lifecycle.bringUp(daemon.device(), null, true);
      } catch (RuntimeException e) {
        log.error("mps uuid={} could not be started again: {}", uuid, e.getMessage());
      }
    }
    lifecycle.refreshServers();
  }
}
