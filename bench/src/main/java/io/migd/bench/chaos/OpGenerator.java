package io.migd.bench.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;

/**
 * Draws the operations of a run from its seed and the node's catalogue alone (never from what the
 * node does), so one seed gives one sequence. Every {@code settleEvery}-th operation is a {@link
 * Op.Settle}.
 */
final class OpGenerator {
  /** NVML calls a fault aims at: the ones a reshape and an observation make. */
  private static final List<String> FAULTABLE =
      List.of(
          "nvmlDeviceCreateGpuInstanceWithPlacement",
          "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
          "nvmlGpuInstanceDestroy",
          "nvmlComputeInstanceDestroy",
          "nvmlDeviceSetMigMode",
          "nvmlDeviceGetMigMode",
          "nvmlDeviceGetGpuInstances");

  /** NVML calls a DRA prepare or unprepare makes (and the loop's MIG-mode read). */
  private static final List<String> DRA_FAULTABLE =
      List.of(
          "nvmlDeviceCreateGpuInstanceWithPlacement",
          "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
          "nvmlComputeInstanceDestroy",
          "nvmlGpuInstanceDestroy",
          "nvmlDeviceSetMigMode",
          "nvmlDeviceGetGpuInstances");

  /** The config that makes every MIG-capable GPU dynamic (DRA mode's usual intent). */
  static final String ALL_DYNAMIC = "all-dynamic";

  private static final List<String> CODES =
      List.of(
          "NVML_ERROR_UNKNOWN",
          "NVML_ERROR_TIMEOUT",
          "NVML_ERROR_IN_USE",
          "NVML_ERROR_GPU_IS_LOST");

  /** Critical XIDs (48 double-bit ECC, 79 fallen off the bus, 94/95 contained/uncontained ECC). */
  private static final int[] XIDS = {48, 63, 64, 74, 79, 94, 95, 13, 31};

  private final Random random;
  private final NodeCatalog catalog;
  private final int settleEvery;
  private final boolean kills;
  private final boolean dra;
  private int step;
  private int pids = 40_000;
  private int pods;
  private int claims;
  private int backToDynamicAt = -1;

  /**
   * {@code kills} false leaves out SIGKILL and NVML faults (which need a restart), so one migd
   * lives the whole run and its resources show a trend. {@code dra} draws DRA mode's operations
   * ({@link #nextDra}) instead of the device plugin's.
   */
  OpGenerator(long seed, NodeCatalog catalog, int settleEvery, boolean kills, boolean dra) {
    this.random = new Random(seed);
    this.catalog = catalog;
    this.settleEvery = settleEvery;
    this.kills = kills;
    this.dra = dra;
  }

  Op next() {
    step++;
    if (step % settleEvery == 0) {
      return new Op.Settle();
    }
    if (dra) {
      return nextDra();
    }
    int gpu = random.nextInt(catalog.gpus().size());
    int roll = random.nextInt(100);
    if (roll < 14) {
      return new Op.PutLayout(random.nextInt(7) == 0, random.nextInt(10) == 0, explicitLayout());
    }
    if (roll < 24) {
      return new Op.PutLayout(
          random.nextInt(7) == 0, random.nextInt(10) == 0, "{\"config\":\"" + config() + "\"}");
    }
    if (roll < 32) {
      return new Op.Label(config());
    }
    if (roll < 42) {
      return new Op.Attach(gpu, random.nextInt(8), pids++);
    }
    if (roll < 49) {
      return new Op.Detach(random.nextInt(16));
    }
    if (roll < 59) {
      return new Op.StartPod(random.nextInt(64), "pod-" + pods++);
    }
    if (roll < 66) {
      return new Op.EndPod(random.nextInt(16));
    }
    if (roll < 72) {
      return new Op.Xid(gpu, random.nextInt(8), XIDS[random.nextInt(XIDS.length)]);
    }
    if (roll < 74) {
      return new Op.KubeletRestart();
    }
    if (roll < 77) {
      return new Op.ApiOutage(1 + random.nextInt(8));
    }
    if (roll < 80) {
      String faults = faults(gpu);
      if (kills) {
        return new Op.Kill(faults);
      }
    }
    return new Op.Hostile(random.nextInt(HostileRequests.COUNT));
  }

  /**
   * DRA mode: claims prepared and unprepared, processes on the slices, XIDs, the plugin's
   * registration socket removed, API outages, kills with faults aimed at a prepare's or an
   * unprepare's NVML calls, hostile requests, and now and then an intent that turns the GPUs static
   * and back to dynamic. No pods or explicit layouts (the device plugin's).
   */
  private Op nextDra() {
    int gpu = random.nextInt(catalog.gpus().size());
    int roll = random.nextInt(100);
    if (backToDynamicAt > 0 && step >= backToDynamicAt) {
      // a static spell lasts a few operations: most of the run exercises dynamic GPUs
      backToDynamicAt = -1;
      return intent(ALL_DYNAMIC);
    }
    if (roll < 32) {
      NodeCatalog.Gpu g = catalog.gpus().get(gpu);
      String request =
          random.nextInt(3) == 0
              ? share()
              : g.profiles().isEmpty() || random.nextInt(12) == 0
                  ? "type=gpu"
                  : "profile=" + g.profiles().get(random.nextInt(g.profiles().size()));
      return new Op.Prepare(request, "claim-" + claims++);
    }
    if (roll < 54) {
      return new Op.Unprepare(random.nextInt(32));
    }
    if (roll < 62) {
      return new Op.Attach(gpu, random.nextInt(8), pids++);
    }
    if (roll < 68) {
      return new Op.Detach(random.nextInt(16));
    }
    if (roll < 72) {
      return new Op.Xid(gpu, random.nextInt(8), XIDS[random.nextInt(XIDS.length)]);
    }
    if (roll < 74) {
      return new Op.KubeletRestart();
    }
    if (roll < 77) {
      return new Op.ApiOutage(1 + random.nextInt(8));
    }
    if (roll < 79) {
      String config = random.nextInt(3) > 0 ? ALL_DYNAMIC : config();
      if (!config.equals(ALL_DYNAMIC)) {
        backToDynamicAt = step + 4 + random.nextInt(12);
      }
      return intent(config);
    }
    if (roll < 82) {
      String faults = draFaults(gpu);
      if (kills) {
        return new Op.Kill(faults);
      }
    }
    return new Op.Hostile(random.nextInt(HostileRequests.COUNT));
  }

  /**
   * A share of any twin: memory 1–40 GiB in steps of 256 MiB (the twins' policy step), compute 5–50
   * % (the allocator rounds it up to a twin's minimum).
   */
  private String share() {
    long mib = 256L * (4 + random.nextInt(157));
    return "share=" + mib + "Mi," + (5 + random.nextInt(46));
  }

  /** The label set to {@code config}, or {@code PUT /api/v1/layout} of it. */
  private Op intent(String config) {
    return random.nextBoolean()
        ? new Op.Label(config)
        : new Op.PutLayout(false, false, "{\"config\":\"" + config + "\"}");
  }

  /**
   * A fault table for migd's next life in DRA mode: none, a transient or persistent fault on one
   * GPU's prepare and unprepare calls, or a {@code KILL} after the N-th call of one of them.
   */
  private String draFaults(int gpu) {
    String function = DRA_FAULTABLE.get(random.nextInt(DRA_FAULTABLE.size()));
    String code = CODES.get(random.nextInt(CODES.size()));
    return switch (random.nextInt(6)) {
      case 0 -> "";
      case 1 -> function + "@" + gpu + "#" + (1 + random.nextInt(4)) + "=" + code;
      case 2 -> function + "@" + gpu + "=" + code;
      default -> DRA_FAULTABLE.get(random.nextInt(5)) + "#" + (1 + random.nextInt(6)) + "=KILL";
    };
  }

  private String config() {
    List<String> names = catalog.configNames();
    return names.get(random.nextInt(names.size()));
  }

  /**
   * A fault table for migd's next life: none, a transient fault (the N-th call on one GPU fails), a
   * persistent one (every call on one GPU fails, {@code GPU_IS_LOST} among them), or a {@code KILL}
   * in the middle of a reshape.
   */
  private String faults(int gpu) {
    String function = FAULTABLE.get(random.nextInt(FAULTABLE.size()));
    String code = CODES.get(random.nextInt(CODES.size()));
    return switch (random.nextInt(6)) {
      case 0, 1 -> "";
      case 2 -> function + "@" + gpu + "#" + (1 + random.nextInt(4)) + "=" + code;
      case 3 -> function + "@" + gpu + "=" + code;
      case 4 -> "nvmlDeviceGetMigMode@" + gpu + "=NVML_ERROR_GPU_IS_LOST";
      default -> FAULTABLE.get(random.nextInt(4)) + "#" + (1 + random.nextInt(6)) + "=KILL";
    };
  }

  /**
   * An explicit layout of some GPUs: profiles drawn until the memory slices run out (so most fit;
   * some do not, and get a 422), MIG off with time-slicing now and then, sharing of one profile.
   */
  private String explicitLayout() {
    var gpus = new ArrayList<NodeCatalog.Gpu>();
    for (NodeCatalog.Gpu gpu : catalog.gpus()) {
      if (random.nextInt(3) > 0) {
        gpus.add(gpu);
      }
    }
    if (gpus.isEmpty()) {
      gpus.add(catalog.gpus().get(random.nextInt(catalog.gpus().size())));
    }
    var entries = new StringJoiner(",", "{\"gpus\":[", "]}");
    for (NodeCatalog.Gpu gpu : gpus) {
      entries.add(gpuLayout(gpu));
    }
    return entries.toString();
  }

  private String gpuLayout(NodeCatalog.Gpu gpu) {
    if (!gpu.migCapable() || gpu.profiles().isEmpty() || random.nextInt(8) == 0) {
      String sharing =
          random.nextBoolean()
              ? ",\"timeSlicing\":{\"replicas\":" + (2 + random.nextInt(3)) + "}"
              : "";
      return "{\"gpu\":" + gpu.index() + ",\"migEnabled\":false" + sharing + "}";
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    int free = gpu.memorySlices();
    for (int tries = 0; tries < 6 && free > 0; tries++) {
      String profile = gpu.profiles().get(random.nextInt(gpu.profiles().size()));
      int size = memorySlices(profile, gpu.memorySlices());
      if (size <= free) {
        counts.merge(profile, 1, Integer::sum);
        free -= size;
      }
    }
    var devices = new StringJoiner(",", "{", "}");
    counts.forEach((profile, n) -> devices.add("\"" + profile + "\":" + n));
    String sharing = "";
    if (!counts.isEmpty() && random.nextInt(5) == 0) {
      String shared = counts.keySet().iterator().next();
      sharing =
          ",\"sharing\":{\""
              + shared
              + "\":{\"timeSlicing\":{\"replicas\":"
              + (2 + random.nextInt(3))
              + "}}}";
    }
    return "{\"gpu\":" + gpu.index() + ",\"migDevices\":" + devices + sharing + "}";
  }

  /** Memory slices a profile's GPU instance takes: {@code 3g} takes a half of a 7-slice GPU. */
  private static int memorySlices(String profile, int gpuSlices) {
    int g = Integer.parseInt(profile.substring(0, profile.indexOf('g')));
    if (gpuSlices == 4) {
      return g;
    }
    return switch (g) {
      case 1, 2 -> g;
      case 3, 4 -> 4;
      default -> 8;
    };
  }
}
