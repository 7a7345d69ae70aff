package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What NVML shows of the node, read with {@code nvml-sim status -o json} from the simulator's state
 * file, outside migd: the ground truth every invariant compares with.
 */
record NvmlView(List<NvmlView.Gpu> gpus) {
  private static final ObjectMapper JSON = new ObjectMapper();

  NvmlView {
    gpus = List.copyOf(gpus);
  }

  /**
   * One GPU: MIG mode, GPU instances, the pids of its compute processes, and its compute mode
   * (NVML's value: 0 {@code DEFAULT}, 3 {@code EXCLUSIVE_PROCESS}).
   */
  record Gpu(
      int index,
      String model,
      String uuid,
      boolean migCapable,
      boolean migCurrent,
      List<GpuInstance> instances,
      Set<Integer> pids,
      int computeMode) {
    Gpu {
      instances = List.copyOf(instances);
      pids = Set.copyOf(pids);
    }

    /** {@link GpuInstance#shape()} of each GPU instance, sorted. */
    List<String> shape() {
      return instances.stream().map(GpuInstance::shape).sorted().toList();
    }
  }

  /**
   * A GPU instance and its compute instances.
   *
   * @param profileId its GPU-instance profile id
   * @param start the start of its placement, in memory slices
   * @param size the size of its placement, in memory slices
   */
  record GpuInstance(
      int id,
      String profile,
      int profileId,
      int start,
      int size,
      List<ComputeInstance> computeInstances) {
    GpuInstance {
      computeInstances = List.copyOf(computeInstances);
    }

    /** The profile and how many compute instances it holds: {@code 3g.40gb/1}. */
    String shape() {
      return profile + "/" + computeInstances.size();
    }
  }

  /** A compute instance: its id and profile, and the MIG device's UUID. */
  record ComputeInstance(int id, String profile, String uuid) {}

  /** Every MIG device UUID of the node. */
  Set<String> migUuids() {
    var uuids = new HashSet<String>();
    for (Gpu gpu : gpus) {
      for (GpuInstance gi : gpu.instances()) {
        gi.computeInstances().forEach(ci -> uuids.add(ci.uuid()));
      }
    }
    return uuids;
  }

  /** Reads the state file with {@code nvmlSim}. */
  static NvmlView read(Path nvmlSim, Path state) {
    return parse(NvmlView.run(nvmlSim, state, "status", "-o", "json"));
  }

  static NvmlView parse(String json) {
    var gpus = new ArrayList<Gpu>();
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("reading nvml-sim status", e);
    }
    for (JsonNode g : root.path("gpus")) {
      var instances = new ArrayList<GpuInstance>();
      for (JsonNode gi : g.path("gpuInstances")) {
        var cis = new ArrayList<ComputeInstance>();
        for (JsonNode ci : gi.path("computeInstances")) {
          cis.add(
              new ComputeInstance(
                  ci.path("id").asInt(), ci.path("profile").asText(), ci.path("uuid").asText()));
        }
        instances.add(
            new GpuInstance(
                gi.path("id").asInt(),
                gi.path("profile").asText(),
                gi.path("profileId").asInt(),
                gi.path("placement").path("start").asInt(),
                gi.path("placement").path("size").asInt(),
                cis));
      }
      var pids = new HashSet<Integer>();
      g.path("processes").forEach(p -> pids.add(p.path("pid").asInt()));
      gpus.add(
          new Gpu(
              g.path("index").asInt(),
              g.path("model").asText(),
              g.path("uuid").asText(),
              g.path("migCapable").asBoolean(),
              g.path("migMode").path("current").asBoolean(),
              instances,
              pids,
              g.path("computeMode").asInt()));
    }
    return new NvmlView(gpus);
  }

  /**
   * Runs {@code nvml-sim --state STATE ARGS...}; returns its stdout on exit 0, else throws with its
   * stderr (a refused attach is exit 1).
   */
  static String run(Path nvmlSim, Path state, String... args) {
    var command = new ArrayList<String>(List.of(nvmlSim.toString(), "--state", state.toString()));
    command.addAll(List.of(args));
    var builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().keySet().removeIf(name -> name.startsWith("NVML_SIM_"));
    try {
      Process process = builder.redirectErrorStream(false).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("nvml-sim " + String.join(" ", args) + " did not end");
      }
      if (process.exitValue() != 0) {
        throw new SimRefused(
            "nvml-sim " + String.join(" ", args) + " exited " + process.exitValue() + ": " + err);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** nvml-sim refused a command (exit 1 or 2). */
  static final class SimRefused extends RuntimeException {
    SimRefused(String message) {
      super(message);
    }
  }
}
