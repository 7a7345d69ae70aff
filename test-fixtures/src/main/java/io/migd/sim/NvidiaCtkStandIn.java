package io.migd.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

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
}
