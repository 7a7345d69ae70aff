package io.migd.cli;

import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulator's command-line front {@code nvml-sim}, extracted from test-fixtures, used to look
 * at and change a node's state file from outside migd (test-fixtures/README.md).
 */
public final class NvmlSimCommand {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Path executable;

  private NvmlSimCommand(Path executable) {
    this.executable = executable;
  }

  /**
   * Extracts {@code nvml-sim} (and the library beside it) into a new directory under {@code dir}.
   */
  public static NvmlSimCommand extract(Path dir) {
    return new NvmlSimCommand(SimulatedNvml.extract(dir).cliPath());
  }

  /** The extracted {@code nvml-sim}, for scripts that run it themselves. */
  public Path executable() {
    return executable;
  }

  /** Runs {@code nvml-sim --state STATE ARGS...}; fails unless it exits 0; returns its stdout. */
  public String run(Path state, String... args) {
    var command = new ArrayList<String>();
    command.add(executable.toString());
    command.add("--state");
    command.add(state.toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("NVML_SIM_"));
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      var stderr =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return new String(
                      process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(MigdProcess.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("nvml-sim " + args + " did not end");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "nvml-sim "
                + String.join(" ", args)
                + " exited "
                + process.exitValue()
                + ": "
                + stderr.join());
      }
      return stdout;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code nvml-sim status -o json} of a state file. */
  JsonNode status(Path state) {
    return JSON.readTree(run(state, "status", "-o", "json"));
  }

  /** The layout of every GPU of a state file, in index order. */
  public List<GpuLayout> layouts(Path state) {
    var layouts = new ArrayList<GpuLayout>();
    for (JsonNode gpu : status(state).path("gpus")) {
      layouts.add(GpuLayout.of(gpu));
    }
    return layouts;
  }

  /**
   * What {@code migd assert} compares, read from the simulator: MIG mode (current and pending) and
   * the GPU instances, each written {@code profile[its compute-instance profiles]}, sorted, so that
   * placements and ids do not matter but a GPU instance without compute instances, or one too many,
   * does.
   */
  public record GpuLayout(
      String model, boolean migCurrent, boolean migPending, List<String> instances) {
    static GpuLayout of(JsonNode gpu) {
      var instances = new ArrayList<String>();
      for (JsonNode gi : gpu.path("gpuInstances")) {
        var computeInstances = new ArrayList<String>();
        for (JsonNode ci : gi.path("computeInstances")) {
          computeInstances.add(ci.path("profile").asString());
        }
        computeInstances.sort(null);
        instances.add(gi.path("profile").asString() + computeInstances);
      }
      instances.sort(null);
      JsonNode mode = gpu.path("migMode");
      return new GpuLayout(
          gpu.path("model").asString(),
          mode.path("current").asBoolean(),
          mode.path("pending").asBoolean(),
          List.copyOf(instances));
    }

    /** MIG enabled with these GPU instances ({@code profile[compute-instance profiles]}). */
    public static GpuLayout mig(String model, String... instances) {
      return new GpuLayout(model, true, true, List.of(instances).stream().sorted().toList());
    }

    /** MIG disabled, nothing on the GPU. */
    public static GpuLayout disabled(String model) {
      return new GpuLayout(model, false, false, List.of());
    }
  }
}
