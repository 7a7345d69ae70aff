package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What an intent asks of one GPU, in the {@code PUT /api/v1/layout} shape: MIG mode and the count
 * of each profile (sharing changes only what is advertised, not what NVML shows).
 */
record GpuTarget(boolean migEnabled, Map<String, Integer> migDevices) {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMPUTE_PROFILE = Pattern.compile("^\\d+c\\..*");

  GpuTarget {
    migDevices = Map.copyOf(new TreeMap<>(migDevices));
  }

  /** One GPU of the {@code PUT} shape; {@code migEnabled} defaults as the contract says. */
  static GpuTarget of(JsonNode gpu) {
    var devices = new HashMap<String, Integer>();
    gpu.path("migDevices")
        .fields()
        .forEachRemaining(e -> devices.put(e.getKey(), e.getValue().asInt()));
    boolean enabled =
        gpu.has("migEnabled") ? gpu.path("migEnabled").asBoolean() : gpu.has("migDevices");
    return new GpuTarget(enabled, devices);
  }

  /** The GPUs of a {@code {"gpus": [...]}} body or a {@code /configs} entry, by index. */
  static Map<Integer, GpuTarget> gpusOf(JsonNode withGpus) {
    var gpus = new TreeMap<Integer, GpuTarget>();
    for (JsonNode gpu : withGpus.path("gpus")) {
      gpus.put(gpu.path("gpu").asInt(), of(gpu));
    }
    return gpus;
  }

  static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + json, e);
    }
  }

  /**
   * The GPU instances NVML must show ({@link NvmlView.Gpu#shape()}), each with the compute instance
   * spanning it; empty when the target names compute-instance profiles, whose shape this runner
   * does not predict.
   */
  Optional<List<String>> shape() {
    var shape = new ArrayList<String>();
    if (!migEnabled) {
      return Optional.of(shape);
    }
    for (var e : migDevices.entrySet()) {
      if (COMPUTE_PROFILE.matcher(e.getKey()).matches()) {
        return Optional.empty();
      }
      for (int i = 0; i < e.getValue(); i++) {
        shape.add(e.getKey() + "/1");
      }
    }
    return Optional.of(shape.stream().sorted().toList());
  }
}
