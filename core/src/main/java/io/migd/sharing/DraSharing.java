package io.migd.sharing;

import io.migd.command.ExternalCommand;
import io.migd.mps.ClaimDaemons;
import io.migd.mps.DaemonSpec;
import io.migd.mps.MpsControl;
import io.migd.mps.MpsPaths;
import io.migd.nvml.ComputeMode;
import io.migd.reconcile.AtomicFiles;
import io.migd.sharing.MpsConfig.MemoryLimit;
import io.migd.sharing.MpsConfig.ThreadPercentage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharing of this node's claims: time slicing through {@code migd.dra.timeslice-command} after
 * compute mode {@code DEFAULT} on whole GPUs (nothing on MIG devices), and MPS through one daemon
 * of the {@code -mps} DaemonSet per device. What is applied is recorded per claim, before it is, in
 * {@code <state dir>/dra-sharing/<claim UID>} (one line each: {@code timeslice <GPU UUID>}, {@code
 * mps <daemon id> <device UUID>}), so an unprepare after a restart undoes it.
 */
public final class DraSharing implements ClaimSharing {
  private static final Logger log = LoggerFactory.getLogger(DraSharing.class);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  private final Path records;
  private final ComputeModes modes;
  private final List<String> timesliceCommand;
  private final ClaimDaemons daemons;

  /** Sets a whole GPU's compute mode (through NVML). */
  @FunctionalInterface
  public interface ComputeModes {
    /** Sets the compute mode of the GPU {@code gpuUuid}. */
    void set(String gpuUuid, ComputeMode mode);
  }

  /**
   * Sharing recorded under {@code stateDir}, compute modes set through {@code modes}, the time
   * slice set by {@code timesliceCommand} (its {@code {uuid}} and {@code {interval}} replaced), MPS
   * daemons asked for through {@code daemons}.
   */
  public DraSharing(
      Path stateDir, ComputeModes modes, List<String> timesliceCommand, ClaimDaemons daemons) {
    this.records = stateDir.resolve("dra-sharing");
    this.modes = Objects.requireNonNull(modes);
    this.timesliceCommand = List.copyOf(timesliceCommand);
    this.daemons = Objects.requireNonNull(daemons);
  }

  @Override
  public ClientEdits apply(String claimUid, SharedDevice device, List<String> claimUuids) {
    return switch (device.sharing()) {
      case DeviceSharing.Exclusive _ -> ClientEdits.NONE;
      case DeviceSharing.TimeSlicing _ when !device.wholeGpu() -> ClientEdits.NONE;
      case DeviceSharing.TimeSlicing(var interval) -> {
        record(claimUid, "timeslice " + device.uuid());
        modes.set(device.uuid(), ComputeMode.DEFAULT);
        timeslice(device.uuid(), interval);
        log.info(
            "claim={} device={} gpu={} time slice interval={}",
            claimUid,
            device.name(),
            device.gpu(),
            interval);
        yield ClientEdits.NONE;
      }
      case DeviceSharing.Mps(var config) -> mps(claimUid, device, config, claimUuids);
      case DeviceSharing.Share share -> share(claimUid, device, share);
    };
  }

  /**
   * A share of {@code device}: recorded, the device's daemon started by the first share ({@code
   * -M}, the share's limits as its defaults), or its limits raised to the largest share's when this
   * share is larger than every other; the share's clients held to its own by their environment.
   */
  private ClientEdits share(String claimUid, SharedDevice device, DeviceSharing.Share share) {
    String id = ClaimDaemons.id("share", device.uuid());
    Optional<ShareLimits> before = ShareLimits.largest(shares(id, claimUid));
    record(
        claimUid,
        String.join(
            " ",
            "share",
            id,
            device.uuid(),
            Long.toString(share.memoryMib()),
            Integer.toString(share.computePercent()),
            share.shareId()));
    ShareLimits after = ShareLimits.largest(shares(id, "")).orElseThrow();
    try {
      // the first share starts the daemon; a later one starts it again if it is gone (a crash
      // of the daemon, or of the supervisor's pod), else its clients would run without MPS
      if (before.isEmpty() || !daemons.running(id)) {
        daemons.start(
            id,
            new DaemonSpec(
                device.uuid(),
                true,
                device.wholeGpu(),
                List.of(
                    new DaemonSpec.Limit.ActiveThreads(after.computePercent()),
                    new DaemonSpec.Limit.PinnedMemory(after.memoryMib()))));
      } else if (!before.get().equals(after)) {
        daemons.limits(id, device.uuid(), after.memoryMib(), after.computePercent());
      }
    } catch (MpsControl.MpsException e) {
      throw new SharingFailure("device " + device.name() + ": " + e.getMessage(), e);
    }
    log.info(
        "claim={} device={} share={} memory={}M compute={}% daemon={} limits={}",
        claimUid,
        device.name(),
        share.shareId(),
        share.memoryMib(),
        share.computePercent(),
        id,
        after);
    return new ClientEdits(
        Map.of(
            "CUDA_MPS_PIPE_DIRECTORY",
            MpsPaths.CLIENT_PIPE_DIRECTORY.toString(),
            "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
            "0=" + share.memoryMib() + "M",
            "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
            Integer.toString(share.computePercent())),
        List.of(
            new ClientEdits.Mount(daemons.pipeDirectory(id), MpsPaths.CLIENT_PIPE_DIRECTORY),
            new ClientEdits.Mount(daemons.sharedMemory(id), Path.of("/dev/shm"))));
  }

  /**
   * A share of daemon {@code id} ends: the daemon stops with the device's last share, else its
   * limits follow the largest share left.
   */
  private void unshare(String claimUid, String id, String deviceUuid) {
    Optional<ShareLimits> before = ShareLimits.largest(shares(id, ""));
    Optional<ShareLimits> left = ShareLimits.largest(shares(id, claimUid));
    if (left.isEmpty()) {
      daemons.stop(id, deviceUuid);
    } else if (!left.equals(before)) {
      daemons.limits(id, deviceUuid, left.get().memoryMib(), left.get().computePercent());
    }
  }

  /** The shares every claim but {@code exceptClaim} has recorded on daemon {@code id}. */
  private List<DeviceSharing.Share> shares(String id, String exceptClaim) {
    var shares = new ArrayList<DeviceSharing.Share>();
    if (!Files.isDirectory(records)) {
      return shares;
    }
    try (var files = Files.list(records)) {
      for (Path file : files.toList()) {
        String claim = file.getFileName().toString();
        if (claim.equals(exceptClaim) || claim.startsWith(".")) {
          continue;
        }
        for (String line : recorded(claim)) {
          String[] words = line.split(" ");
          if (words.length == 6 && words[0].equals("share") && words[1].equals(id)) {
            shares.add(
                new DeviceSharing.Share(
                    words[5], Long.parseLong(words[3]), Integer.parseInt(words[4])));
          }
        }
      }
    } catch (IOException e) {
      throw new SharingFailure("listing " + records + ": " + e, e);
    }
    return shares;
  }

  private ClientEdits mps(
      String claimUid, SharedDevice device, MpsConfig config, List<String> claimUuids) {
    var limits = new ArrayList<DaemonSpec.Limit>();
    if (config.threads() instanceof ThreadPercentage.Percent(var percent)) {
      limits.add(new DaemonSpec.Limit.ActiveThreads(percent));
    }
    MemoryLimit memory;
    try {
      memory = config.memoryOf(device.uuid(), claimUuids);
    } catch (IllegalArgumentException e) {
      throw new ConfigRefused(e.getMessage());
    }
    if (memory instanceof MemoryLimit.Mib(var mib)) {
      limits.add(new DaemonSpec.Limit.PinnedMemory(mib));
    }
    String id = ClaimDaemons.id(claimUid, device.name());
    record(claimUid, "mps " + id + " " + device.uuid());
    try {
      daemons.start(
          id, new DaemonSpec(device.uuid(), config.multiUser(), device.wholeGpu(), limits));
    } catch (MpsControl.MpsException e) {
      throw new SharingFailure("device " + device.name() + ": " + e.getMessage(), e);
    }
    return new ClientEdits(
        Map.of("CUDA_MPS_PIPE_DIRECTORY", MpsPaths.CLIENT_PIPE_DIRECTORY.toString()),
        List.of(
            new ClientEdits.Mount(daemons.pipeDirectory(id), MpsPaths.CLIENT_PIPE_DIRECTORY),
            new ClientEdits.Mount(daemons.sharedMemory(id), Path.of("/dev/shm"))));
  }

  @Override
  public void release(String claimUid) {
    List<String> lines = recorded(claimUid);
    var left = new ArrayList<String>();
    SharingFailure failure = null;
    for (String line : lines) {
      String[] words = line.split(" ");
      try {
        switch (words[0]) {
          case "mps" -> daemons.stop(words[1], words[2]);
          case "share" -> unshare(claimUid, words[1], words[2]);
          case "timeslice" -> timeslice(words[1], 0);
          default -> log.warn("claim={} unknown sharing record \"{}\" dropped", claimUid, line);
        }
      } catch (RuntimeException e) {
        left.add(line);
        failure =
            new SharingFailure(
                "undoing " + line + " of claim " + claimUid + ": " + e.getMessage(), e);
      }
    }
    write(claimUid, left);
    if (failure != null) {
      throw failure;
    }
    if (!lines.isEmpty()) {
      log.info("claim={} sharing undone: {}", claimUid, lines);
    }
  }

  /** Runs the time slice command for {@code gpuUuid}. */
  private void timeslice(String gpuUuid, int interval) {
    var command =
        timesliceCommand.stream()
            .map(
                a -> a.replace("{uuid}", gpuUuid).replace("{interval}", Integer.toString(interval)))
            .toList();
    ExternalCommand.Ran ran = ExternalCommand.of(command, COMMAND_TIMEOUT).run();
    if (!ran.succeeded()) {
      throw new SharingFailure(
          "setting the time slice of GPU " + gpuUuid + " to " + interval + ": " + ran.describe(),
          null);
    }
  }

  private void record(String claimUid, String line) {
    var lines = new LinkedHashSet<>(recorded(claimUid));
    if (lines.add(line)) {
      write(claimUid, List.copyOf(lines));
    }
  }

  private List<String> recorded(String claimUid) {
    try {
      return Files.readAllLines(file(claimUid)).stream().filter(l -> !l.isBlank()).toList();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new SharingFailure("reading " + file(claimUid) + ": " + e, e);
    }
  }

  private void write(String claimUid, List<String> lines) {
    Path file = file(claimUid);
    try {
      if (lines.isEmpty()) {
        Files.deleteIfExists(file);
        return;
      }
      Files.createDirectories(records);
      AtomicFiles.writeForThisBoot(file, String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new SharingFailure("writing " + file + ": " + e, e);
    }
  }

  private Path file(String claimUid) {
    return records.resolve(claimUid);
  }
}
