package io.migd.mps;

import io.migd.layout.ObservedNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MPS control daemon, through the {@code -mps} DaemonSet's supervisor and the control command:
 * ask for it ({@code daemon.json}) and wait until the supervisor says it runs, adopt it, ask it for
 * its servers, and stop it (the request removed, then {@code quit}). Holds no state and takes no
 * lock, so callers run it outside {@link MpsDaemonState}'s lock.
 */
final class DaemonCommands {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsControl control;
  private final MpsPaths paths;
  private final DaemonRequests requests;
  private final StateFiles states;
  private final Duration startTimeout;

  DaemonCommands(
      MpsControl control,
      MpsPaths paths,
      DaemonRequests requests,
      StateFiles states,
      Duration startTimeout) {
    this.control = control;
    this.paths = paths;
    this.requests = requests;
    this.states = states;
    this.startTimeout = startTimeout;
  }

  /** Takes the daemon of {@code pid} as {@code device}'s, its request brought up to date. */
  RunningDaemon adopt(MpsDevice device, long pid) {
    String uuid = device.uuid();
    requests.request(device);
    var daemon = new RunningDaemon(device, pid, serverList(uuid));
    log.info("mps uuid={} gpu={} pid={} adopted", uuid, device.gpu(), pid);
    return daemon;
  }

  /**
   * Asks the supervisor for the daemon of {@code device} and waits until its state names a running
   * daemon (the supervisor sets the limits before it says so).
   *
   * @throws MpsControl.MpsException when it does not within {@code migd.mps.start-timeout}
   */
  RunningDaemon start(MpsDevice device) {
    return start(device, startDeadline());
  }

  /**
   * The deadline of daemons asked for now ({@code migd.mps.start-timeout} from now): the daemons of
   * one pass share it, so a supervisor that runs none of them holds the pass {@code start-timeout}
   * once, not once per device.
   */
  Instant startDeadline() {
    return Instant.now().plus(startTimeout);
  }

  /** Asks for {@code device}'s daemon ahead of {@link #start}, so the supervisor starts several. */
  void request(MpsDevice device) {
    requests.request(device);
  }

  /**
   * {@link #start(MpsDevice)} with a deadline shared with other daemons of the same pass.
   *
   * @throws MpsControl.MpsException when the supervisor does not say it runs by {@code deadline}
   */
  RunningDaemon start(MpsDevice device, Instant deadline) {
    String uuid = device.uuid();
    requests.request(device);
    Optional<Long> pid = states.awaitRunning(uuid, deadline);
    if (pid.isEmpty()) {
      throw new MpsControl.MpsException(
          "the MPS supervisor (the chart's -mps DaemonSet) did not run the daemon of "
              + uuid
              + " within "
              + startTimeout
              + "; "
              + paths.stateFile(uuid)
              + ": "
              + states.read(uuid),
          null);
    }
    var daemon = new RunningDaemon(device, pid.get(), serverList(uuid));
    log.info(
        "mps uuid={} gpu={} pid={} running replicas={} thread_percentage={} memory_limit={}M",
        uuid,
        device.gpu(),
        pid.get(),
        device.replicas(),
        device.activeThreadPercentage(),
        device.pinnedMemoryLimitMib());
    return daemon;
  }

  /** Brings the request of {@code device} up to date: the supervisor sends changed limits. */
  void update(MpsDevice device) {
    requests.request(device);
  }

  /**
   * Stops the daemon of {@code uuid}: removes its request (the supervisor would start it again
   * otherwise), then tells it to {@code quit}, so it is gone when this returns. A failure is
   * logged, never thrown.
   */
  void sendQuit(String uuid, long pid, String why) {
    try {
      requests.withdraw(uuid);
      control.send(environment(uuid), List.of("quit"));
      log.info("mps uuid={} pid={} quit: {}", uuid, pid, why);
    } catch (RuntimeException e) {
      log.warn("mps uuid={} quit failed ({}): {}", uuid, why, e.getMessage());
    }
  }

  /** The processes on the device other than the daemon and its servers. */
  List<String> clients(ObservedNode observed, String uuid, long daemonPid) {
    var known = new HashSet<Long>();
    serverList(uuid).forEach(pid -> known.add(pid.longValue()));
    known.add(daemonPid);
    return MpsDevices.clients(observed, uuid, known);
  }

  /** The MPS servers the daemon of {@code uuid} reports, none when it cannot be asked. */
  List<Integer> serverList(String uuid) {
    try {
      var pids = new ArrayList<Integer>();
      for (String line : control.send(environment(uuid), List.of("get_server_list"))) {
        String text = line.strip();
        if (text.matches("[0-9]{1,9}")) {
          pids.add(Integer.parseInt(text));
        }
      }
      return pids;
    } catch (RuntimeException e) {
      log.warn("mps uuid={} get_server_list failed: {}", uuid, e.getMessage());
      return List.of();
    }
  }

  /** The environment of the control command talking to the daemon of {@code uuid}. */
  Map<String, String> environment(String uuid) {
    return Map.of(
        "CUDA_VISIBLE_DEVICES", uuid,
        "CUDA_MPS_PIPE_DIRECTORY", paths.pipeDirectory(uuid).toString(),
        "CUDA_MPS_LOG_DIRECTORY", paths.logDirectory(uuid).toString());
  }
}
