package io.migd.mps;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervision step: for every daemon whose process is gone, its replicas are unhealthy until
 * the supervisor says it runs again (its new pid taken); then refreshes which processes are MPS
 * servers.
 */
final class DaemonSupervision {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsDaemonState state;
  private final DaemonLifecycle lifecycle;
  private final StateFiles states;

  DaemonSupervision(MpsDaemonState state, DaemonLifecycle lifecycle, StateFiles states) {
    this.state = state;
    this.lifecycle = lifecycle;
    this.states = states;
  }

  /** One check; the caller holds the lock that {@link DaemonReconciliation} takes turns on. */
  void check() {
    Instant deadline = null;
    for (RunningDaemon daemon : state.daemons()) {
      String uuid = daemon.device().uuid();
      if (states.namesDaemon(uuid, daemon.pid())) {
        continue;
      }
      if (!state.removeIfCurrent(uuid, daemon)) {
        continue;
      }
      log.warn(
          "mps uuid={} pid={} is gone; waiting for the supervisor to run it again",
          uuid,
          daemon.pid());
      lifecycle.markDown(uuid);
      try {
        // the daemons gone in one check wait for one deadline, as a reconcile's do
        if (deadline == null) {
          deadline = lifecycle.startDeadline();
        }
        lifecycle.bringUp(daemon.device(), null, true, deadline);
      } catch (RuntimeException e) {
        log.error("mps uuid={} does not run again: {}", uuid, e.getMessage());
      }
    }
    lifecycle.refreshServers();
  }
}
