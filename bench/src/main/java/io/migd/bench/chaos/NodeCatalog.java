package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the runner knows of the node before it starts: each GPU's model and profiles, and the
 * configs a label may name with what each makes of every GPU it selects (from {@code GET
 * /api/v1/configs} on the fresh node, which depends only on the models). The operations are drawn
 * from it, so a seed gives the same operations on every run.
 */
record NodeCatalog(List<NodeCatalog.Gpu> gpus, Map<String, Map<Integer, GpuTarget>> configs) {
  NodeCatalog {
    gpus = List.copyOf(gpus);
    configs = Map.copyOf(new TreeMap<>(configs));
  }

  /** A GPU: whether it has MIG, its memory slices, and its GPU-instance profiles. */
  record Gpu(int index, String model, boolean migCapable, int memorySlices, List<String> profiles) {
    Gpu {
      profiles = List.copyOf(profiles);
    }
  }

  /** The catalogue of a node whose {@code /configs} answered {@code configsJson}. */
  static NodeCatalog of(NvmlView nvml, String configsJson) {
    JsonNode configs = GpuTarget.tree(configsJson);
    var usable = new TreeMap<String, Map<Integer, GpuTarget>>();
    var profiles = new TreeMap<Integer, TreeSet<String>>();
    for (JsonNode config : configs) {
      String name = config.path("name").asText();
      boolean feasible = true;
      for (JsonNode decision : config.path("decisions")) {
        String d = decision.path("decision").asText();
        feasible &= !d.equals("infeasible") && !d.equals("failed");
      }
      Map<Integer, GpuTarget> targets = GpuTarget.gpusOf(config);
      if (name.startsWith("all-") && !name.equals("all-balanced")) {
        targets.forEach(
            (gpu, target) ->
                profiles
                    .computeIfAbsent(gpu, g -> new TreeSet<>())
                    .addAll(target.migDevices().keySet()));
      }
      if (feasible && !targets.isEmpty()) {
        usable.put(name, targets);
      }
    }
    var gpus = new ArrayList<Gpu>();
    for (NvmlView.Gpu gpu : nvml.gpus()) {
      gpus.add(
          new Gpu(
              gpu.index(),
              gpu.model(),
              gpu.migCapable(),
              gpu.model().startsWith("A30") ? 4 : 8,
              List.copyOf(profiles.getOrDefault(gpu.index(), new TreeSet<>()))));
    }
    return new NodeCatalog(gpus, usable);
  }

  /** The config names a label may take, in order. */
  List<String> configNames() {
    return List.copyOf(configs.keySet());
  }
}
