package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.migd.mps.ClaimDaemons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DRA invariants that hold at any moment while migd runs, checked against NVML: every prepared
 * claim's instance exists at its placement with its profile (the runner's ledger and migd's
 * checkpoint), and no two prepared claims overlap.
 */
final class DraInvariants {
  private final ChaosNode node;
  private final ChaosReport report;
  private final DraShareInvariants shares;

  DraInvariants(ChaosNode node, ChaosReport report) {
    this.node = node;
    this.report = report;
    this.shares = new DraShareInvariants(report);
  }

  /**
   * Checks {@code known} (the runner's ledger) and migd's checkpoint against NVML now; {@code
   * twins} gives each shareable twin's capacities as it was published.
   */
  void check(int step, List<DraClaims.Known> known, Map<String, Map<String, Long>> twins) {
    NvmlView nvml = node.nvml();
    checkInstances(step, nvml, prepared(known));
    Optional<JsonNode> checkpoint = checkpoint(step);
    checkpoint.ifPresent(c -> checkCheckpoint(step, nvml, known, c));
    node.mpsRoot().ifPresent(root -> checkMpsDaemons(step, nvml, root, known));
    checkComputeModes(step, nvml, known);
    checkpoint.ifPresent(c -> shares.check(step, nvml, known, c, twins, node.mpsRoot()));
  }

  /**
   * Every MPS daemon serves exactly the prepared devices of its claims: each device of a prepared
   * MPS claim has its daemon asked for, on the UUID NVML shows for it, and every daemon asked for
   * is a device's of a claim the kubelet knows (prepared, or in doubt while a call failed).
   */
  private void checkMpsDaemons(int step, NvmlView nvml, Path root, List<DraClaims.Known> known) {
    var requested = new HashMap<String, String>();
    try (var dirs = Files.list(root)) {
      for (Path dir : dirs.toList()) {
        Path file = dir.resolve("daemon.json");
        String id = dir.getFileName().toString();
        if (id.startsWith(ClaimDaemons.PREFIX) && Files.isRegularFile(file)) {
          String device = GpuTarget.tree(Files.readString(file)).path("device").asText();
          // a twin's daemon, its shares' (DraShareInvariants), is no claim's own
          if (!id.equals(ClaimDaemons.id("share", device))) {
            requested.put(id, device);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      report.violation(step, "the MPS requests are readable", root + ": " + e);
      return;
    }
    var ofClaims = new HashSet<String>();
    for (DraClaims.Known claim : known) {
      if (claim.sharing(true) != ChaosSharing.MPS) {
        continue;
      }
      for (String device : claim.devices()) {
        String id = ClaimDaemons.id(claim.uid(), device);
        ofClaims.add(id);
        if (!claim.prepared()) {
          continue;
        }
        String served = requested.get(id);
        List<String> uuids = DraDeviceNames.uuids(nvml, device);
        if (served == null || !uuids.contains(served)) {
          report.violation(
              step,
              "every MPS daemon serves exactly the prepared devices of its claims",
              claim.name() + " " + device + " " + uuids + ": daemon " + id + " serves " + served);
        }
      }
    }
    requested.forEach(
        (id, device) -> {
          if (!ofClaims.contains(id)) {
            report.violation(
                step,
                "every MPS daemon serves exactly the prepared devices of its claims",
                "daemon " + id + " serves " + device + " for no claim the kubelet knows");
          }
        });
  }

  /**
   * A whole GPU's compute mode is back to {@code DEFAULT} once nothing shares it: only a whole GPU
   * an MPS claim the kubelet knows holds may be in another mode.
   */
  private void checkComputeModes(int step, NvmlView nvml, List<DraClaims.Known> known) {
    var shared = new HashSet<String>();
    known.stream()
        .filter(k -> k.sharing(node.mpsRoot().isPresent()) == ChaosSharing.MPS)
        .forEach(k -> shared.addAll(k.devices()));
    // a whole GPU's shares run under its daemon too
    known.forEach(k -> k.shares().forEach(s -> shared.add(DraDeviceNames.exclusive(s.device()))));
    for (NvmlView.Gpu gpu : nvml.gpus()) {
      if (gpu.computeMode() != 0 && !shared.contains("gpu-" + gpu.index())) {
        report.violation(
            step,
            "a whole GPU's compute mode is DEFAULT once nothing shares it",
            "GPU " + gpu.index() + " is in compute mode " + gpu.computeMode());
      }
    }
  }

  /**
   * Every prepared claim's instance exists and no two of them overlap, but shares of one twin; no
   * exclusive instance overlaps a shared one.
   */
  void checkInstances(int step, NvmlView nvml, List<DraClaims.Known> prepared) {
    var taken = new HashMap<Integer, List<String[]>>();
    for (DraClaims.Known claim : prepared) {
      for (String device : claim.devices()) {
        Optional<String> problem = DraDeviceNames.missing(nvml, DraDeviceNames.exclusive(device));
        if (problem.isPresent()) {
          report.violation(
              step,
              "a prepared claim's instance exists at its placement",
              claim.name() + " " + device + ": " + problem.get());
          continue;
        }
        Optional<Integer> minor = DraDeviceNames.minor(DraDeviceNames.exclusive(device));
        if (minor.isEmpty()) {
          continue;
        }
        for (String[] other : taken.computeIfAbsent(minor.get(), g -> new ArrayList<>())) {
          boolean twins = DraDeviceNames.isTwin(device) && DraDeviceNames.isTwin(other[1]);
          if ((!twins || !device.equals(other[1]))
              && DraDeviceNames.overlap(
                  nvml, DraDeviceNames.exclusive(device), DraDeviceNames.exclusive(other[1]))) {
            report.violation(
                step,
                DraDeviceNames.isTwin(device) || DraDeviceNames.isTwin(other[1])
                    ? "no exclusive instance overlaps a shared one"
                    : "no two prepared claims overlap",
                claim.name() + " " + device + " and " + other[0] + " " + other[1]);
          }
        }
        taken.get(minor.get()).add(new String[] {claim.name(), device});
      }
    }
  }

  /**
   * migd's checkpoint: every claim it holds as prepared has its instances in NVML (GPU instance id
   * at its placement, and its MIG UUID), and every claim of the ledger is in it. A claim the runner
   * has called unprepare for without success is not checked: its instance may be half destroyed.
   */
  private void checkCheckpoint(
      int step, NvmlView nvml, List<DraClaims.Known> known, JsonNode checkpoint) {
    var completed = new HashMap<String, JsonNode>();
    for (JsonNode claim : checkpoint.path("claims")) {
      if (claim.path("state").asText().equals("prepareCompleted")) {
        completed.put(claim.path("uid").asText(), claim);
      }
    }
    for (DraClaims.Known claim : prepared(known)) {
      if (!completed.containsKey(claim.uid())) {
        report.violation(
            step,
            "every prepared claim is in migd's checkpoint",
            claim.name() + " (" + claim.uid() + ") is not, or not as prepareCompleted");
      }
    }
    Map<String, Boolean> migUuids = new HashMap<>();
    nvml.migUuids().forEach(u -> migUuids.put(u, true));
    // a claim whose unprepare was called and did not succeed (an NVML fault on the GPU-instance
    // destroy, after its compute instance went) stays checkpointed as the instance's owner until
    // the kubelet's retry succeeds, as the contract says; its instance may be half destroyed
    var inDoubt = new HashSet<String>();
    known.stream().filter(k -> !k.prepared()).forEach(k -> inDoubt.add(k.uid()));
    for (JsonNode claim : completed.values()) {
      if (inDoubt.contains(claim.path("uid").asText())) {
        continue;
      }
      for (JsonNode device : claim.path("devices")) {
        checkDevice(step, nvml, migUuids, claim, device);
      }
    }
  }

  private void checkDevice(
      int step, NvmlView nvml, Map<String, Boolean> migUuids, JsonNode claim, JsonNode device) {
    int gi = device.path("gpuInstanceId").asInt(-1);
    if (gi < 0 || device.path("kind").asText().equals("ADMIN_ACCESS")) {
      return;
    }
    NvmlView.Gpu gpu = nvml.gpus().get(gpuIndex(device.path("gpu")));
    // a static slice's record has no placement (-1): its GPU instance id says which
    int start = device.path("placementStart").asInt(-1);
    boolean there =
        gpu.migCurrent()
            && gpu.instances().stream()
                .anyMatch(i -> i.id() == gi && (start < 0 || i.start() == start));
    String uuid = device.path("migUuid").asText("");
    if (!there || (!uuid.isEmpty() && !migUuids.containsKey(uuid))) {
      report.violation(
          step,
          "every checkpointed claim's instance exists at its placement",
          claim.path("name").asText()
              + " "
              + device.path("name").asText()
              + " (GI "
              + gi
              + " at "
              + start
              + ", "
              + uuid
              + "): NVML shows "
              + DraDeviceNames.describe(gpu));
    }
  }

  /** migd's checkpoint ({@code <state-dir>/dra-checkpoint.json}); empty when not readable. */
  private Optional<JsonNode> checkpoint(int step) {
    Path file = node.stateDir().resolve("dra-checkpoint.json");
    try {
      return Optional.of(
          GpuTarget.tree(Files.exists(file) ? Files.readString(file) : "{\"claims\":[]}"));
    } catch (IOException | RuntimeException e) {
      report.violation(step, "migd's checkpoint is readable", file + ": " + e);
      return Optional.empty();
    }
  }

  private static List<DraClaims.Known> prepared(List<DraClaims.Known> known) {
    return known.stream().filter(DraClaims.Known::prepared).toList();
  }

  private static int gpuIndex(JsonNode gpu) {
    return gpu.isObject() ? gpu.elements().next().asInt() : gpu.asInt();
  }
}
