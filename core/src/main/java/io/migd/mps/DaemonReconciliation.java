package io.migd.mps;

import io.migd.layout.ObservedNode;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the daemons in line with a reconcile's outcome: {@code quit} for daemons whose device is
 * no longer shared by MPS (none while clients use it), a daemon for every wanted device (adopted
 * when one runs), the request brought up to date where the replicas changed, and no request left
 * for a device that is neither wanted nor served (the supervisor would keep starting it).
 */
final class DaemonReconciliation {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsDaemonState state;
  private final DaemonCommands commands;
  private final DaemonLifecycle lifecycle;
  private final StateFiles states;
  private final DaemonRequests requests;

  DaemonReconciliation(
      MpsDaemonState state,
      DaemonCommands commands,
      DaemonLifecycle lifecycle,
      StateFiles states,
      DaemonRequests requests) {
    this.state = state;
    this.commands = commands;
    this.lifecycle = lifecycle;
    this.states = states;
    this.requests = requests;
  }

  /**
   * One pass over {@code wanted}, by UUID; the caller holds the lock that {@link DaemonSupervision}
   * takes turns on.
   */
  void reconciled(ObservedNode observed, Map<String, MpsDevice> wanted) {
    var snapshot = state.snapshot();
    for (RunningDaemon daemon : snapshot.daemons()) {
      String uuid = daemon.device().uuid();
      if (wanted.containsKey(uuid)) {
        continue;
      }
      // a slice the intent drops but a client holds (its GPU blocked) keeps its daemon
      var clients = commands.clients(observed, uuid, daemon.pid());
      if (clients.isEmpty()) {
        lifecycle.quit(uuid, "its device is no longer shared by MPS");
      } else {
        keeps(uuid, clients);
      }
    }
    for (var entry : snapshot.adoptable().entrySet()) {
      String uuid = entry.getKey();
      if (wanted.containsKey(uuid) || !states.namesDaemon(uuid, entry.getValue())) {
        continue;
      }
      var clients = commands.clients(observed, uuid, entry.getValue());
      if (clients.isEmpty()) {
        state.removeAdoptable(uuid);
        commands.sendQuit(uuid, entry.getValue(), "its device is no longer shared by MPS");
      } else {
        keeps(uuid, clients);
      }
    }
    // every missing daemon is asked for first, then all wait for one deadline: the supervisor
    // starts them side by side, and one that runs none holds this pass start-timeout once
    for (MpsDevice device : wanted.values()) {
      if (state.claim(device.uuid()).running() == null) {
        commands.request(device);
      }
    }
    Instant deadline = commands.startDeadline();
    for (MpsDevice device : wanted.values()) {
      try {
        ensure(device, deadline);
      } catch (RuntimeException e) {
        log.error(
            "mps uuid={} gpu={} daemon not running: {}",
            device.uuid(),
            device.gpu(),
            e.getMessage());
        lifecycle.markDown(device.uuid());
      }
    }
    withdrawIdle(wanted);
    state.clearQuitServers();
    lifecycle.refreshServers();
  }

  /** Removes the requests of devices neither wanted nor served by a daemon migd keeps. */
  private void withdrawIdle(Map<String, MpsDevice> wanted) {
    var kept = state.snapshot();
    try {
      for (String uuid : requests.requested()) {
        boolean served =
            kept.daemons().stream().anyMatch(d -> d.device().uuid().equals(uuid))
                || kept.adoptable().containsKey(uuid);
        if (!wanted.containsKey(uuid) && !served) {
          requests.withdraw(uuid);
          log.info("mps uuid={} request removed: the device is not shared by MPS", uuid);
        }
      }
    } catch (IOException | RuntimeException e) {
      log.warn("mps cannot remove the requests of devices no longer shared: {}", e.toString());
    }
  }

  private static void keeps(String uuid, List<String> clients) {
    log.info(
        "mps uuid={} is no longer shared by MPS, but clients use it ({}); its daemon stays",
        uuid,
        clients);
  }

  private void ensure(MpsDevice device, Instant deadline) {
    String uuid = device.uuid();
    var claim = state.claim(uuid);
    RunningDaemon running = claim.running();
    if (running == null) {
      lifecycle.bringUp(device, claim.adopted(), false, deadline);
    } else if (!running.device().equals(device)) {
      commands.update(device);
      state.replace(uuid, running, new RunningDaemon(device, running.pid(), running.servers()));
    }
  }
}
