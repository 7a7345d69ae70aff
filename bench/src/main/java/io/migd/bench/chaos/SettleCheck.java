package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.migd.kubelet.FakeKubelet;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a node at rest must show, once the faults have stopped and nothing holds a slice: {@code GET
 * /api/v1/layout} names the newest intent and reports {@code success} for it; NVML shows exactly
 * what the intent asks of each GPU it selects (no GPU instance left over or half-made, also after a
 * kill); the kubelet sees exactly the devices NVML shows; the Node's state label says {@code
 * success}.
 */
final class SettleCheck {
  private SettleCheck() {}

  /** What differs from a converged node; empty when it has converged to one of {@code newest}. */
  static List<String> differences(ChaosNode node, List<Intent> newest) {
    var differences = new ArrayList<String>();
    Optional<HttpResponse<String>> answer = node.migd.get("/api/v1/layout");
    if (answer.isEmpty() || answer.get().statusCode() != 200) {
      return List.of(
          "GET /api/v1/layout: " + answer.map(r -> "HTTP " + r.statusCode()).orElse("no answer"));
    }
    JsonNode layout = GpuTarget.tree(answer.get().body());
    JsonNode desired = layout.path("desired");
    String source = desired.path("source").asText();
    long generation = desired.path("generation").asLong();
    Optional<Intent> intent =
        newest.stream()
            .filter(i -> i.isDesired(source, desired.path("config").asText(), generation))
            .findFirst();
    if (intent.isEmpty()) {
      differences.add(
          "desired is "
              + desired
              + " but the newest intent is "
              + (newest.size() > 1 ? "one of " : "")
              + newest);
      return differences;
    }
    long outcomeGeneration = layout.path("outcome").path("generation").asLong();
    if (outcomeGeneration != generation) {
      differences.add(
          "the last outcome is for generation " + outcomeGeneration + ", desired " + generation);
    }
    if (!layout.path("state").asText().equals("success")) {
      differences.add(
          "state " + layout.path("state").asText() + ": " + layout.path("reason").asText());
    }
    NvmlView nvml = node.nvml();
    for (Map.Entry<Integer, GpuTarget> e : intent.get().targets().entrySet()) {
      NvmlView.Gpu gpu = nvml.gpus().get(e.getKey());
      GpuTarget target = e.getValue();
      if (gpu.migCapable() && gpu.migCurrent() != target.migEnabled()) {
        differences.add(
            "GPU " + gpu.index() + " MIG " + gpu.migCurrent() + ", wanted " + target.migEnabled());
      }
      target
          .shape()
          .filter(shape -> !shape.equals(gpu.shape()))
          .ifPresent(
              shape ->
                  differences.add(
                      "GPU "
                          + gpu.index()
                          + " ("
                          + gpu.model()
                          + ") NVML shows "
                          + gpu.shape()
                          + ", the intent "
                          + shape));
    }
    var advertised = advertised(node.kubelet());
    var shown = shown(nvml);
    if (!advertised.equals(shown)) {
      var extra = new TreeSet<>(advertised);
      extra.removeAll(shown);
      var missing = new TreeSet<>(shown);
      missing.removeAll(advertised);
      differences.add("the kubelet sees " + extra + " that NVML lacks, and lacks " + missing);
    }
    String state = node.labels().getOrDefault(ChaosNode.STATE_LABEL, "(none)");
    if (!state.equals("success")) {
      differences.add("state label " + state);
    }
    return differences;
  }

  /**
   * {@code resource device} of every device on an open ListAndWatch stream, replicas as their
   * parent.
   */
  private static TreeSet<String> advertised(FakeKubelet kubelet) {
    var devices = new TreeSet<String>();
    for (String resource : kubelet.registeredResources()) {
      if (!kubelet.streaming(resource)) {
        continue;
      }
      for (String id : kubelet.ids(resource)) {
        int replica = id.indexOf("::");
        devices.add(resource + " " + (replica < 0 ? id : id.substring(0, replica)));
      }
    }
    return devices;
  }

  /** What the kubelet must see of NVML's devices under {@code migd.mig-strategy=mixed}. */
  private static TreeSet<String> shown(NvmlView nvml) {
    var devices = new TreeSet<String>();
    for (NvmlView.Gpu gpu : nvml.gpus()) {
      if (!gpu.migCurrent()) {
        devices.add("nvidia.com/gpu " + gpu.uuid());
        continue;
      }
      for (NvmlView.GpuInstance gi : gpu.instances()) {
        for (NvmlView.ComputeInstance ci : gi.computeInstances()) {
          String profile = gi.computeInstances().size() == 1 ? gi.profile() : ci.profile();
          devices.add("nvidia.com/mig-" + profile.replace('+', '.') + " " + ci.uuid());
        }
      }
    }
    return devices;
  }
}
