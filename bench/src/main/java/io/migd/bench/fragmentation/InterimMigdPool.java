package io.migd.bench.fragmentation;

import io.migd.nvml.InstancePlacement;
import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.GpuFacts;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * TEMPORARY stand-in for migd's {@code io.migd.pool.PoolBuilder} (issue 18, branch dra-pool, not on
 * main yet): the pool of all-dynamic GPUs with the device order of DESIGN.md section 12 ("Order =
 * preference"). Replace {@link Fragmentation#MIGD_ORDER} with the PoolBuilder and delete this class
 * once it lands; the baseline ({@link NvidiaOrder}) then sorts the PoolBuilder's devices.
 *
 * <p>Only what allocation reads is built faithfully (names, {@code type} and {@code profile},
 * {@code memory}, counters and what each device consumes); attributes are a short subset.
 */
final class InterimMigdPool {
  private InterimMigdPool() {}

  static PoolContent build(BenchState state) {
    var slices = new ArrayList<PoolSlice>();
    var sets = state.gpus().stream().map(InterimMigdPool::counterSet).toList();
    int index = 0;
    for (int from = 0; from < sets.size(); from += 8) {
      slices.add(
          new PoolSlice(
              sliceName(index++, state),
              new PoolSlice.Counters(sets.subList(from, Math.min(sets.size(), from + 8)))));
    }
    for (var gpu : state.gpus()) {
      slices.add(
          new PoolSlice(
              sliceName(index++, state), new PoolSlice.Devices(gpu.gpu(), ordered(gpu, state))));
    }
    return new PoolContent(state.driver(), state.node(), slices);
  }

  private static String sliceName(int index, BenchState state) {
    return "%03x-%s-%s".formatted(index, state.driver(), state.node());
  }

  static String deviceName(GpuFacts gpu, GpuFacts.MigProfile profile, int start) {
    String normalized =
        profile.name().toLowerCase(Locale.ROOT).replace(".", "").replaceAll("[^a-z0-9-]", "-");
    return "gpu-%d-mig-%s-%d-%d".formatted(gpu.minor(), normalized, profile.giProfileId(), start);
  }

  private static String counterSetName(GpuFacts gpu) {
    return "gpu-" + gpu.minor() + "-counter-set";
  }

  private static int memorySlices(GpuFacts gpu) {
    return gpu.profiles().stream()
        .flatMap(p -> p.placements().stream())
        .mapToInt(at -> at.start() + at.size())
        .max()
        .orElse(0);
  }

  private static CounterSet counterSet(GpuFacts gpu) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = 0; i < memorySlices(gpu); i++) {
      counters.put("memory-slice-" + i, 1L);
    }
    profileCounters(gpu.profiles().stream().reduce(InterimMigdPool::largest).orElseThrow())
        .forEach(counters::put);
    return new CounterSet(counterSetName(gpu), counters);
  }

  private static GpuFacts.MigProfile largest(GpuFacts.MigProfile a, GpuFacts.MigProfile b) {
    return new GpuFacts.MigProfile(
        0,
        "max",
        Math.max(a.memoryMiB(), b.memoryMiB()),
        Math.max(a.sliceCount(), b.sliceCount()),
        Math.max(a.multiprocessors(), b.multiprocessors()),
        Math.max(a.copyEngines(), b.copyEngines()),
        Math.max(a.decoders(), b.decoders()),
        Math.max(a.encoders(), b.encoders()),
        Math.max(a.jpegEngines(), b.jpegEngines()),
        Math.max(a.ofaEngines(), b.ofaEngines()),
        List.of());
  }

  private static SequencedMap<String, Long> profileCounters(GpuFacts.MigProfile p) {
    var counters = new LinkedHashMap<String, Long>();
    counters.put("memory", p.memoryMiB() << 20);
    counters.put("multiprocessors", (long) p.multiprocessors());
    counters.put("copy-engines", (long) p.copyEngines());
    counters.put("decoders", (long) p.decoders());
    counters.put("encoders", (long) p.encoders());
    counters.put("jpeg-engines", (long) p.jpegEngines());
    counters.put("ofa-engines", (long) p.ofaEngines());
    return counters;
  }

  private record Placed(String name, GpuFacts.MigProfile profile, InstancePlacement at) {
    boolean overlaps(InstancePlacement other) {
      return at.start() < other.start() + other.size() && other.start() < at.start() + at.size();
    }
  }

  /** MIG devices by profile memory then id, each profile's by descending score; whole GPU last. */
  private static List<PoolDevice> ordered(GpuFacts gpu, BenchState state) {
    var all = new ArrayList<Placed>();
    for (var profile : gpu.profiles()) {
      for (var at : profile.placements()) {
        all.add(new Placed(deviceName(gpu, profile, at.start()), profile, at));
      }
    }
    var taken = all.stream().filter(p -> state.allocated().contains(p.name())).toList();
    var free = all.stream().filter(p -> taken.stream().noneMatch(t -> t.overlaps(p.at()))).toList();
    var score = new HashMap<String, Integer>();
    for (var candidate : all) {
      int sum = 0;
      for (var other : free) {
        if (!other.overlaps(candidate.at())) {
          sum += other.profile().sliceCount();
        }
      }
      score.put(candidate.name(), sum);
    }
    Comparator<Placed> order =
        Comparator.<Placed>comparingLong(p -> p.profile().memoryMiB())
            .thenComparingInt(p -> p.profile().giProfileId())
            .thenComparing(p -> score.get(p.name()), Comparator.reverseOrder())
            .thenComparing(p -> p.at().start(), Comparator.reverseOrder());
    var devices = new ArrayList<PoolDevice>();
    all.stream().sorted(order).forEach(p -> devices.add(mig(gpu, p)));
    devices.add(whole(gpu));
    return devices;
  }

  private static PoolDevice mig(GpuFacts gpu, Placed placed) {
    var profile = placed.profile();
    var attributes = new TreeMap<String, Attribute>();
    attributes.put("type", new Attribute.Text("mig"));
    attributes.put("profile", new Attribute.Text(profile.name()));
    attributes.put("parentUUID", new Attribute.Text(gpu.uuid()));
    attributes.put("minor", new Attribute.Int(gpu.minor()));
    attributes.put("placementStart", new Attribute.Int(placed.at().start()));
    attributes.put("placementSize", new Attribute.Int(placed.at().size()));
    var consumed = new LinkedHashMap<String, Long>();
    for (int i = placed.at().start(); i < placed.at().start() + placed.at().size(); i++) {
      consumed.put("memory-slice-" + i, 1L);
    }
    consumed.putAll(profileCounters(profile));
    return new PoolDevice(
        placed.name(),
        attributes,
        new TreeMap<>(Map.of("memory", profile.memoryMiB() << 20)),
        List.of(new CounterConsumption(counterSetName(gpu), consumed)),
        List.of(),
        new DeviceOrigin.DynamicPlacement(
            gpu.gpu(),
            gpu.uuid(),
            profile.name(),
            profile.giProfileId(),
            placed.at().start(),
            placed.at().size()));
  }

  private static PoolDevice whole(GpuFacts gpu) {
    var attributes = new TreeMap<String, Attribute>();
    attributes.put("type", new Attribute.Text("gpu"));
    attributes.put("uuid", new Attribute.Text(gpu.uuid()));
    attributes.put("minor", new Attribute.Int(gpu.minor()));
    return new PoolDevice(
        "gpu-" + gpu.minor(),
        attributes,
        new TreeMap<>(Map.of("memory", gpu.memoryBytes())),
        List.of(new CounterConsumption(counterSetName(gpu), counterSet(gpu).counters())),
        List.of(),
        new DeviceOrigin.WholeGpu(gpu.gpu(), gpu.uuid(), true));
  }
}
