package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.migd.mps.ClaimDaemons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The invariants of shares of twins, at any moment while migd runs: the prepared shares of a twin
 * (the runner's ledger, and migd's checkpoint) never exceed its capacities; every running share
 * daemon's limits are at least each of its prepared shares' memory and compute. (No exclusive
 * instance overlapping a shared one is {@link DraInvariants#checkInstances}'.)
 */
final class DraShareInvariants {
  private static final Pattern PINNED =
      Pattern.compile("set_default_device_pinned_mem_limit 0 (\\d+)M");
  private static final Pattern THREADS =
      Pattern.compile("set_default_active_thread_percentage (\\d+)");

  /** The compute of a twin: percent of its multiprocessors. */
  private static final long ALL_COMPUTE = 100;

  private final ChaosReport report;

  DraShareInvariants(ChaosReport report) {
    this.report = report;
  }

  /** One share as a source holds it: the claim, the twin and what it consumed. */
  private record Held(String claim, String twin, long memoryBytes, long compute) {}

  /**
   * Checks the prepared claims of {@code known}, the {@code prepareCompleted} ones of {@code
   * checkpoint}, and the share daemons under {@code mpsRoot}; {@code twins} gives each twin's
   * capacities as it was published.
   */
  void check(
      int step,
      NvmlView nvml,
      List<DraClaims.Known> known,
      JsonNode checkpoint,
      Map<String, Map<String, Long>> twins,
      Optional<Path> mpsRoot) {
    var ledger = new ArrayList<Held>();
    for (DraClaims.Known claim : known) {
      if (claim.prepared()) {
        claim
            .shares()
            .forEach(
                s -> ledger.add(new Held(claim.name(), s.device(), s.memoryBytes(), s.compute())));
      }
    }
    checkCapacities(step, "the kubelet's prepared claims", ledger, twins);
    checkCapacities(step, "migd's checkpoint", checkpointed(checkpoint), twins);
    mpsRoot.ifPresent(root -> checkDaemons(step, nvml, root, ledger));
  }

  private void checkCapacities(
      int step, String source, List<Held> shares, Map<String, Map<String, Long>> twins) {
    var byTwin = new HashMap<String, List<Held>>();
    shares.forEach(s -> byTwin.computeIfAbsent(s.twin(), _ -> new ArrayList<>()).add(s));
    byTwin.forEach(
        (twin, held) -> {
          long memory = held.stream().mapToLong(Held::memoryBytes).sum();
          long compute = held.stream().mapToLong(Held::compute).sum();
          Long capacity = twins.getOrDefault(twin, Map.of()).get(DraClaims.MEMORY);
          if ((capacity != null && memory > capacity) || compute > ALL_COMPUTE) {
            report.violation(
                step,
                "the prepared shares of a device never exceed its capacities",
                twin
                    + " in "
                    + source
                    + ": memory "
                    + memory
                    + " of "
                    + capacity
                    + " bytes, compute "
                    + compute
                    + " of "
                    + ALL_COMPUTE
                    + " % by "
                    + describe(held));
          }
        });
  }

  /** The shares of migd's {@code prepareCompleted} claims. */
  private static List<Held> checkpointed(JsonNode checkpoint) {
    var shares = new ArrayList<Held>();
    for (JsonNode claim : checkpoint.path("claims")) {
      if (!claim.path("state").asText().equals("prepareCompleted")) {
        continue;
      }
      for (JsonNode device : claim.path("devices")) {
        JsonNode share = device.path("share");
        if (share.isObject()) {
          shares.add(
              new Held(
                  claim.path("name").asText(),
                  device.path("name").asText(),
                  share.path("memoryBytes").asLong(),
                  share.path("computePercent").asLong()));
        }
      }
    }
    return shares;
  }

  /**
   * Every prepared share has its device's daemon running, whose defaults (the last {@code
   * set_default_*} of its control log) are at least the share's memory and compute.
   */
  private void checkDaemons(int step, NvmlView nvml, Path root, List<Held> prepared) {
    for (Held share : prepared) {
      String device = DraDeviceNames.exclusive(share.twin());
      for (String uuid : DraDeviceNames.uuids(nvml, device)) {
        Path dir = root.resolve(ClaimDaemons.id("share", uuid));
        if (!Files.isRegularFile(dir.resolve("daemon.json"))) {
          report.violation(
              step,
              "every prepared share's device has its MPS daemon",
              share.claim() + " " + share.twin() + " (" + uuid + "): no daemon " + dir);
          continue;
        }
        List<String> log;
        try {
          log = Files.readAllLines(dir.resolve("pipe/control.log"));
        } catch (IOException e) {
          report.violation(step, "a share daemon's control log is readable", dir + ": " + e);
          continue;
        }
        long memoryMib = last(log, PINNED);
        long compute = last(log, THREADS);
        if (memoryMib < share.memoryBytes() >> 20 || compute < share.compute()) {
          report.violation(
              step,
              "every share daemon's limits are at least each of its prepared shares",
              share.claim()
                  + " "
                  + share.twin()
                  + " ("
                  + (share.memoryBytes() >> 20)
                  + " MiB, "
                  + share.compute()
                  + " %): daemon "
                  + dir.getFileName()
                  + " holds "
                  + memoryMib
                  + " MiB, "
                  + compute
                  + " %");
        }
      }
    }
  }

  /** The number of the last line {@code pattern} matches; 0 when none does. */
  private static long last(List<String> log, Pattern pattern) {
    long found = 0;
    for (String line : log) {
      Matcher m = pattern.matcher(line.strip());
      if (m.matches()) {
        found = Long.parseLong(m.group(1));
      }
    }
    return found;
  }

  private static String describe(List<Held> shares) {
    return shares.stream()
        .map(s -> s.claim() + " (" + (s.memoryBytes() >> 20) + " MiB, " + s.compute() + " %)")
        .toList()
        .toString();
  }
}
