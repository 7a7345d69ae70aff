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
    Optional<Intent> intent = layout(node, newest, differences);
    if (intent.isEmpty()) {
      return differences;
    }
    NvmlView nvml = node.nvml();
    staticTargets(intent.get(), nvml, differences);
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
   * DRA mode: what differs from a node converged to one of {@code newest} with the claims {@code
   * kept} prepared. {@code GET /api/v1/layout} reports {@code success} for the newest intent; under
   * {@code all-dynamic} NVML shows on each MIG-capable GPU every kept claim's GPU instance, and
   * besides only idle whole instances (one compute instance spanning it: kept for reuse, such as a
   * static spell's, as DESIGN 12 allows; none half made), under a static config what it asks; the
   * state label says {@code success}.
   */
  static List<String> draDifferences(
      ChaosNode node, List<Intent> newest, List<DraClaims.Known> kept) {
    var differences = new ArrayList<String>();
    Optional<Intent> intent = layout(node, newest, differences);
    if (intent.isEmpty()) {
      return differences;
    }
    NvmlView nvml = node.nvml();
    if (OpGenerator.ALL_DYNAMIC.equals(intent.get().config())) {
      for (NvmlView.Gpu gpu : nvml.gpus()) {
        if (!gpu.migCapable()) {
          continue;
        }
        var claimed = new TreeSet<String>();
        for (DraClaims.Known claim : kept) {
          for (String name : claim.devices()) {
            // a share's twin stands for its exclusive device's instance
            String device = DraDeviceNames.exclusive(name);
            if (device.startsWith("gpu-" + gpu.index() + "-mig-")) {
              String[] f = device.split("-");
              claimed.add(f[f.length - 2] + "@" + f[f.length - 1]);
            }
          }
        }
        var shown = new TreeSet<String>();
        for (NvmlView.GpuInstance gi : gpu.instances()) {
          String key = gi.profileId() + "@" + gi.start();
          shown.add(key);
          if (!claimed.contains(key) && gi.computeInstances().size() != 1) {
            differences.add(
                "dynamic GPU "
                    + gpu.index()
                    + " has a GPU instance no claim owns that is half made or split: "
                    + gi.profile()
                    + " at "
                    + gi.start()
                    + " with "
                    + gi.computeInstances().size()
                    + " compute instances");
          }
        }
        if (!shown.containsAll(claimed)) {
          differences.add(
              "dynamic GPU "
                  + gpu.index()
                  + " ("
                  + gpu.model()
                  + ") has GPU instances (profile id@start) "
                  + shown
                  + ", its prepared claims "
                  + claimed);
        }
      }
    } else {
      staticTargets(intent.get(), nvml, differences);
    }
    String state = node.labels().getOrDefault(ChaosNode.STATE_LABEL, "(none)");
    if (!state.equals("success")) {
      differences.add("state label " + state);
    }
    return differences;
  }

  /**
   * {@code GET /api/v1/layout}: adds to {@code differences} what it says against {@code newest};
   * returns the intent it names, empty when it names none of them or does not answer.
   */
  private static Optional<Intent> layout(
      ChaosNode node, List<Intent> newest, List<String> differences) {
    Optional<HttpResponse<String>> answer = node.migd.get("/api/v1/layout");
    if (answer.isEmpty() || answer.get().statusCode() != 200) {
      differences.add(
          "GET /api/v1/layout: " + answer.map(r -> "HTTP " + r.statusCode()).orElse("no answer"));
      return Optional.empty();
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
      return Optional.empty();
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
    return intent;
  }

  /** NVML shows what {@code intent} asks of each GPU it selects (MIG mode, GPU instances). */
  private static void staticTargets(Intent intent, NvmlView nvml, List<String> differences) {
    for (Map.Entry<Integer, GpuTarget> e : intent.targets().entrySet()) {
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
