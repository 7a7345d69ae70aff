package io.migd.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The chart's MPS supervisor ({@code daemon/docker/mps-supervisor.sh}) run for a test, as the
 * {@code -mps} DaemonSet runs it: in a mount namespace of its own (the tmpfs it mounts for each
 * daemon stays there), with the simulated {@code nvidia-cuda-mps-control} and {@code nvidia-smi} of
 * {@code sim} first on its {@code PATH} and the simulator's state file. It mounts, so it needs root
 * and {@code unshare}: a test calls {@link #unavailable()} first and skips, saying why.
 */
public final class MpsSupervisor implements AutoCloseable {
  private static final String SCRIPT = "daemon/docker/mps-supervisor.sh";
  private static final String UNAVAILABLE = probe();

  private final Process process;
  private final Path output;

  private MpsSupervisor(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /**
   * Why the supervisor cannot run here (it needs root and {@code unshare -m}), empty when it can.
   */
  public static String unavailable() {
    return UNAVAILABLE;
  }

  /** The supervisor script in this repository. */
  public static Path script() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(SCRIPT))) {
        return dir.resolve(SCRIPT);
      }
    }
    throw new IllegalStateException(SCRIPT + " not found above " + Path.of("").toAbsolutePath());
  }

  /** Starts the supervisor over {@code root}, its output in {@code output}. */
  public static MpsSupervisor start(Path root, SimulatedNvml sim, Path simState, Path output) {
    var builder =
        new ProcessBuilder(
                List.of("unshare", "-m", "--propagation", "private", "sh", script().toString()))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    var env = builder.environment();
    env.put("MPS_ROOT", root.toString());
    env.put("MPS_POLL_SECONDS", "0.2");
    env.put("NVML_SIM_STATE", simState.toString());
    env.put("PATH", sim.cliPath().getParent() + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    try {
      return new MpsSupervisor(builder.start(), output);
    } catch (IOException e) {
      throw new UncheckedIOException("starting " + script(), e);
    }
  }

  /** The supervisor's process. */
  public ProcessHandle process() {
    return process.toHandle();
  }

  /** What the supervisor logged so far. */
  public String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** SIGTERM, as the kubelet stops the container; SIGKILL to what is left after 20 s. */
  @Override
  public void close() {
    var descendants = process.descendants().toList();
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  private static String probe() {
    try {
      Process p =
          new ProcessBuilder("unshare", "-m", "--propagation", "private", "true")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      return p.waitFor() == 0
          ? ""
          : "the MPS supervisor needs root and unshare -m (it mounts a tmpfs per daemon): " + out;
    } catch (IOException e) {
      return "the MPS supervisor needs unshare (util-linux): " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted probing unshare";
    }
  }
}
