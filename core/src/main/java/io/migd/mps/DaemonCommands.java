package io.migd.mps;

import io.migd.layout.ObservedNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes and commands of one MPS control daemon: start it ({@code -d}), adopt it, send its
 * limits, ask it for its servers and tell it to {@code quit}. Holds no state and takes no lock, so
 * callers run it outside {@link MpsDaemonState}'s lock.
 */
final class DaemonCommands {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsControl control;
  private final MpsPaths paths;
  private final PidFiles pidFiles;

  DaemonCommands(MpsControl control, MpsPaths paths, PidFiles pidFiles) {
    this.control = control;
    this.paths = paths;
    this.pidFiles = pidFiles;
  }

  /** Sends the daemon of {@code pid} its limits and takes it as {@code device}'s daemon. */
  RunningDaemon adopt(MpsDevice device, long pid) {
    String uuid = device.uuid();
    sendLimits(device);
    var daemon = new RunningDaemon(device, pid, serverList(uuid));
    log.info("mps uuid={} gpu={} pid={} adopted", uuid, device.gpu(), pid);
    return daemon;
  }

  /** Starts the daemon of {@code device} (a stale pid file goes first) and sends it its limits. */
  RunningDaemon start(MpsDevice device) {
    String uuid = device.uuid();
    try {
      Files.createDirectories(paths.pipeDirectory(uuid));
      Files.createDirectories(paths.logDirectory(uuid));
      Files.createDirectories(paths.sharedMemory());
    } catch (IOException e) {
      throw new MpsControl.MpsException(
          "creating the MPS directories of " + uuid + " under " + paths.root() + ": " + e, e);
    }
    pidFiles.removeStale(uuid);
    control.startDaemon(environment(uuid));
    long pid =
        pidFiles
            .read(uuid)
            .orElseThrow(
                () ->
                    new MpsControl.MpsException(
                        "the MPS control daemon of " + uuid + " wrote no " + paths.pidFile(uuid),
                        null));
    sendLimits(device);
    var daemon = new RunningDaemon(device, pid, serverList(uuid));
    log.info(
        "mps uuid={} gpu={} pid={} started replicas={} thread_percentage={} memory_limit={}M",
        uuid,
        device.gpu(),
        pid,
        device.replicas(),
        device.activeThreadPercentage(),
        device.pinnedMemoryLimitMib());
    return daemon;
  }

  /** Sends the daemon of {@code device} its limits. */
  void sendLimits(MpsDevice device) {
    control.send(environment(device.uuid()), device.limitCommands());
  }

  /** Tells the daemon of {@code uuid} to {@code quit}; a failure is logged, never thrown. */
  void sendQuit(String uuid, long pid, String why) {
    try {
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

  /** The environment of the daemon of {@code uuid}, for {@code -d} and for its commands. */
  Map<String, String> environment(String uuid) {
    var env = new HashMap<String, String>();
    env.put("CUDA_VISIBLE_DEVICES", uuid);
    env.put("CUDA_MPS_PIPE_DIRECTORY", paths.pipeDirectory(uuid).toString());
    env.put("CUDA_MPS_LOG_DIRECTORY", paths.logDirectory(uuid).toString());
    return env;
  }
}
