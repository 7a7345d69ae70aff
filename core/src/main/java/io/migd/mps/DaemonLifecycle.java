package io.migd.mps;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings one daemon up or down and keeps the state in line: a start or an adoption (a plan that
 * destroys the device meanwhile has it quit once it runs), a {@code quit}, the servers each daemon
 * reports, and its health told to the listener. Processes run and the listener is told outside the
 * state lock.
 */
final class DaemonLifecycle {
  private final MpsDaemonState state;
  private final DaemonCommands commands;
  private final StateFiles states;
  private final MpsListener listener;

  DaemonLifecycle(
      MpsDaemonState state, DaemonCommands commands, StateFiles states, MpsListener listener) {
    this.state = state;
    this.commands = commands;
    this.states = states;
    this.listener = listener;
  }

  /**
   * Adopts the daemon {@code adopted} names when it runs, else starts one; outside the lock, so a
   * plan that destroys the device meanwhile marks it cancelled and the daemon is told to quit here.
   * With {@code retryLater}, a start that fails leaves an entry the next check retries.
   */
  void bringUp(MpsDevice device, Long adopted, boolean retryLater) {
    bringUp(device, adopted, retryLater, commands.startDeadline());
  }

  /** {@link #bringUp(MpsDevice, Long, boolean)}, a start waiting at most until {@code deadline}. */
  void bringUp(MpsDevice device, Long adopted, boolean retryLater, Instant deadline) {
    String uuid = device.uuid();
    state.beginStart(uuid, device);
    RunningDaemon up = null;
    boolean destroyed = false;
    try {
      up =
          adopted != null && states.namesDaemon(uuid, adopted)
              ? commands.adopt(device, adopted)
              : commands.start(device, deadline);
    } finally {
      destroyed = state.endStart(uuid, device, up, retryLater);
      if (destroyed && up != null) {
        commands.sendQuit(uuid, up.pid(), "a plan destroys its device; it started meanwhile");
      }
    }
    if (!destroyed) {
      markUp(uuid);
    }
  }

  /** The deadline of daemons asked for now, for several to share. */
  Instant startDeadline() {
    return commands.startDeadline();
  }

  /** Forgets the daemon of {@code uuid} and tells it to {@code quit}. */
  void quit(String uuid, String why) {
    RunningDaemon daemon = state.forget(uuid);
    commands.sendQuit(uuid, daemon == null ? 0 : daemon.pid(), why);
    refreshServers();
  }

  /** Asks each running daemon for its servers (outside the lock), then records them. */
  void refreshServers() {
    Map<String, RunningDaemon> current = state.daemonsByUuid();
    var lists = new LinkedHashMap<String, List<Integer>>();
    current.forEach(
        (uuid, daemon) -> {
          if (states.namesDaemon(uuid, daemon.pid())) {
            lists.put(uuid, commands.serverList(uuid));
          }
        });
    state.recordServers(current, lists);
  }

  void markDown(String uuid) {
    if (state.markDown(uuid)) {
      listener.daemonDown(uuid);
    }
  }

  void markUp(String uuid) {
    if (state.markUp(uuid)) {
      listener.daemonUp(uuid);
    }
  }
}
