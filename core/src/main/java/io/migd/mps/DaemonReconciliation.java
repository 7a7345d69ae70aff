package io.migd.mps;

import io.migd.layout.ObservedNode;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the daemons in line with a reconcile's outcome: {@code quit} for daemons whose device is
 * no longer shared by MPS (none while clients use it), a daemon for every wanted device (adopted
 * when one runs), and limits sent again where the replicas changed.
 */
final class DaemonReconciliation {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsDaemonState state;
  private final DaemonCommands commands;
  private final DaemonLifecycle lifecycle;
  private final PidFiles pidFiles;

  DaemonReconciliation(
      MpsDaemonState state, DaemonCommands commands, DaemonLifecycle lifecycle, PidFiles pidFiles) {
    this.state = state;
    this.commands = commands;
    this.lifecycle = lifecycle;
    this.pidFiles = pidFiles;
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
      if (wanted.containsKey(uuid) || !pidFiles.namesDaemon(uuid, entry.getValue())) {
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
    for (MpsDevice device : wanted.values()) {
      try {
        ensure(device);
      } catch (RuntimeException e) {
        log.error(
            "mps uuid={} gpu={} daemon not running: {}",
            device.uuid(),
            device.gpu(),
            e.getMessage());
        lifecycle.markDown(device.uuid());
      }
    }
    state.clearQuitServers();
    lifecycle.refreshServers();
  }

  private static void keeps(String uuid, List<String> clients) {
    log.info(
        "mps uuid={} is no longer shared by MPS, but clients use it ({}); its daemon stays",
        uuid,
        clients);
  }

  private void ensure(MpsDevice device) {
    String uuid = device.uuid();
    var claim = state.claim(uuid);
    RunningDaemon running = claim.running();
    if (running == null) {
      lifecycle.bringUp(device, claim.adopted(), false);
    } else if (!running.device().equals(device)) {
      commands.sendLimits(device);
      state.replace(uuid, running, new RunningDaemon(device, running.pid(), running.servers()));
    }
  }
}
