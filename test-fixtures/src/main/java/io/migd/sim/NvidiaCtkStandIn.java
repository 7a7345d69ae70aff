package io.migd.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * A stand-in for NVIDIA's {@code nvidia-ctk}: {@code cdi generate} and {@code cdi transform root}
 * with the toolkit's flags, checking the arguments migd must pass and writing a spec of the
 * toolkit's shape for the simulated GPUs and MIG devices (read with {@code nvml-sim} beside it, so
 * it sees the state of {@code NVML_SIM_STATE}). A Python 3 script; see its header for what it
 * invents. Setting {@code NVIDIA_CTK_STANDIN_LOG} makes it append each run's arguments to that
 * file.
 */
public final class NvidiaCtkStandIn {
  /** The command's name, as on a node. */
  public static final String NAME = "nvidia-ctk";

  private NvidiaCtkStandIn() {}

  /** Copies the stand-in beside the simulator's {@code nvml-sim} and returns its path. */
  public static Path beside(SimulatedNvml sim) {
    return beside(sim.cliPath());
  }

  /**
   * Copies the stand-in beside {@code nvmlSim}, a copy of {@code nvml-sim}, and returns its path.
   */
  public static Path beside(Path nvmlSim) {
    Path target = nvmlSim.resolveSibling(NAME);
    try (InputStream in = NvidiaCtkStandIn.class.getResourceAsStream(NAME)) {
      if (in == null) {
        throw new IllegalStateException("io/migd/sim/" + NAME + " is not on the class path");
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("installing the nvidia-ctk stand-in at " + target, e);
    }
  }

  /**
   * migd's environment for CDI on as the chart runs it, over this stand-in installed beside {@code
   * nvmlSim}: a driver root at {@code <dir>/driver-root}, a hook at {@code <dir>/nvidia-cdi-hook},
   * the specs in {@code cdiDir} (the driver root and the hook made here).
   */
  public static Map<String, String> cdiEnvironment(Path nvmlSim, Path dir, Path cdiDir) {
    try {
      Path hook = dir.resolve("nvidia-cdi-hook");
      Files.writeString(hook, "#!/bin/sh\n");
      return Map.of(
          "MIGD_CDI_ENABLED", "true",
          "MIGD_CDI_NVIDIACTK", beside(nvmlSim).toString(),
          "MIGD_CDI_CONTAINERDRIVERROOT",
              Files.createDirectories(dir.resolve("driver-root")).toString(),
          "MIGD_CDI_HOOKPATH", hook.toString(),
          "MIGD_CDI_DIR", cdiDir.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("preparing CDI's files under " + dir, e);
    }
  }
}
