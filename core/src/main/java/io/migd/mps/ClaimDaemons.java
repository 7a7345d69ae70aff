package io.migd.mps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MPS control daemons of DRA claims (docs/contract.md, "Sharing a claim's devices"), one per
 * device of a claim shared by MPS, through the same file protocol as section 11's daemons: a
 * request {@code <root>/dra-<hash>/daemon.json} the {@code -mps} DaemonSet's supervisor runs, and
 * its removal (then {@code quit}) to stop it. Their ids start with {@link #PREFIX}, so the
 * reconcile's {@link MpsDaemons} leaves them to their claims. Holds no state: the claim's sharing
 * record names its daemons.
 */
public final class ClaimDaemons {
  /** The start of every DRA daemon's id. */
  public static final String PREFIX = "dra-";

  private static final Logger log = LoggerFactory.getLogger(ClaimDaemons.class);

  private final MpsControl control;
  private final MpsDaemons.Settings settings;
  private final DaemonRequests requests;
  private final StateFiles states;

  /** Daemons under {@code settings}' root, talked to with {@code control}. */
  public ClaimDaemons(MpsControl control, MpsDaemons.Settings settings) {
    this.control = control;
    this.settings = settings;
    this.requests = new DaemonRequests(settings.paths(), settings.shmSizeBytes());
    this.states = new StateFiles(settings.paths());
  }

  /**
   * The daemon id of device {@code deviceName} of claim {@code claimUid}: short, since the control
   * pipe's socket path must fit 108 bytes under the root.
   */
  public static String id(String claimUid, String deviceName) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest((claimUid + "/" + deviceName).getBytes(StandardCharsets.UTF_8));
      return PREFIX + HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /**
   * Asks for daemon {@code id} as {@code spec} says and waits until the supervisor says it runs
   * with its limits set; returns its pid.
   *
   * @throws MpsControl.MpsException when it does not within {@code migd.mps.start-timeout}
   */
  public long start(String id, DaemonSpec spec) {
    requests.request(id, spec);
    Optional<Long> pid = states.awaitRunning(id, Instant.now().plus(settings.startTimeout()));
    if (pid.isEmpty()) {
      throw new MpsControl.MpsException(
          "the MPS supervisor (the chart's -mps DaemonSet) did not run the daemon of "
              + spec.device()
              + " within "
              + settings.startTimeout()
              + "; "
              + settings.paths().stateFile(id)
              + ": "
              + states.read(id),
          null);
    }
    log.info(
        "mps id={} device={} pid={} running multi_user={} limits={}",
        id,
        spec.device(),
        pid.get(),
        spec.multiUser(),
        spec.limits());
    return pid.get();
  }

  /**
   * Stops daemon {@code id} of {@code device}: its request removed, {@code quit}, then waits until
   * the supervisor says it stopped (a whole GPU's compute mode is {@code DEFAULT} again). A daemon
   * already gone is stopped.
   */
  public void stop(String id, String device) {
    requests.withdraw(id);
    if (states.runningDaemon(id).isPresent()) {
      try {
        control.send(environment(id, device), List.of("quit"));
      } catch (MpsControl.MpsException e) {
        log.warn("mps id={} quit failed: {}; the supervisor stops it", id, e.getMessage());
      }
    }
    if (Files.isRegularFile(settings.paths().stateFile(id))
        && !states.awaitStopped(id, settings.startTimeout())) {
      log.warn(
          "mps id={} device={} the supervisor did not say stopped within {}: {}",
          id,
          device,
          settings.startTimeout(),
          states.read(id));
    }
    log.info("mps id={} device={} stopped", id, device);
  }

  /**
   * Sets the limits of running daemon {@code id} of {@code device}: its defaults for servers it
   * spawns later, and the limits of each server it runs now (for the clients that connect later); a
   * client already connected keeps what it had.
   *
   * @throws MpsControl.MpsException when the control command fails
   */
  public void limits(String id, String device, long memoryMib, int computePercent) {
    Map<String, String> environment = environment(id, device);
    List<String> servers =
        control.send(
            environment,
            List.of(
                "set_default_active_thread_percentage " + computePercent,
                "set_default_device_pinned_mem_limit 0 " + memoryMib + "M",
                "get_server_list"));
    var commands = new ArrayList<String>();
    for (String line : servers) {
      String pid = line.strip();
      if (pid.chars().allMatch(Character::isDigit) && !pid.isEmpty()) {
        commands.add("set_device_pinned_mem_limit " + pid + " 0 " + memoryMib + "M");
        commands.add("set_active_thread_percentage " + pid + " " + computePercent);
      }
    }
    if (!commands.isEmpty()) {
      control.send(environment, commands);
    }
    log.info(
        "mps id={} device={} limits memory={}M threads={}% servers={}",
        id, device, memoryMib, computePercent, commands.size() / 2);
  }

  /** Whether the supervisor says daemon {@code id} runs now. */
  public boolean running(String id) {
    return states.runningDaemon(id).isPresent();
  }

  /** The daemons of DRA claims asked for now, by id. */
  public List<String> requested() {
    var ids = new ArrayList<String>();
    try (var dirs = Files.list(settings.paths().root())) {
      for (Path dir : dirs.toList()) {
        String id = dir.getFileName().toString();
        if (id.startsWith(PREFIX) && Files.isRegularFile(dir.resolve("daemon.json"))) {
          ids.add(id);
        }
      }
    } catch (IOException e) {
      return ids;
    }
    return ids;
  }

  /** The pipe directory of daemon {@code id}, mounted at {@code /tmp/nvidia-mps} in clients. */
  public Path pipeDirectory(String id) {
    return settings.paths().pipeDirectory(id);
  }

  /** The daemon's own tmpfs, mounted at {@code /dev/shm} in clients. */
  public Path sharedMemory(String id) {
    return settings.paths().sharedMemory(id);
  }

  private Map<String, String> environment(String id, String device) {
    return Map.of(
        "CUDA_VISIBLE_DEVICES", device,
        "CUDA_MPS_PIPE_DIRECTORY", settings.paths().pipeDirectory(id).toString(),
        "CUDA_MPS_LOG_DIRECTORY", settings.paths().logDirectory(id).toString());
  }
}
