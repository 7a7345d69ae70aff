package io.migd.pool;

import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimedDevices;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns the node's state into the pool it publishes (DESIGN section 12): per GPU its devices in
 * preference order (static: what exists; dynamic: every profile at every placement, then the whole
 * GPU), the dynamic GPUs' counter sets, and the slices that hold them: counter-only slices first
 * (at most 8 counter sets each), then one device-only slice per GPU in minor order (at most 64
 * devices), named {@code <3 hex digits>-<driver>-<node>} so their names sort in that order. A pure
 * function: the same input builds an equal pool.
 */
public final class PoolBuilder {
  /** Counter sets one slice may hold. */
  public static final int MAX_COUNTER_SETS_PER_SLICE = 8;

  /** Devices one slice may hold when they consume counters or carry taints. */
  public static final int MAX_DEVICES_PER_SLICE = 64;

  private PoolBuilder() {}

  /**
   * What the pool is built from.
   *
   * @param driver the DRA driver's name, {@code gpu.nvidia.com}
   * @param node the node's name, which is the pool's
   * @param gpus the node's GPUs, in any order
   * @param claimed which prepared claim owns which device
   * @param health the health marks that become taints
   * @param taintsDropped the API server drops device taints: an unhealthy device is left out of its
   *     slice instead (its GPU's reasons say so)
   */
  public record Input(
      String driver,
      String node,
      List<PoolGpu> gpus,
      ClaimedDevices claimed,
      DeviceTaints health,
      boolean taintsDropped) {
    /** Copies the list and checks minors and indexes are unique. */
    public Input {
      Objects.requireNonNull(driver);
      Objects.requireNonNull(node);
      Objects.requireNonNull(claimed);
      Objects.requireNonNull(health);
      gpus = List.copyOf(gpus);
      if (gpus.stream().map(g -> g.facts().minor()).distinct().count() != gpus.size()
          || gpus.stream().map(g -> g.facts().gpu()).distinct().count() != gpus.size()) {
        throw new IllegalArgumentException("two GPUs share an index or a minor number: " + gpus);
      }
    }
  }

  /** The pool of {@code input}, with the reasons and free placements beside it. */
  public static BuiltPool build(Input input) {
    var reasons = new TreeMap<GpuIndex, List<String>>();
    var free = new ArrayList<FreePlacements>();
    var counterSets = new ArrayList<CounterSet>();
    var deviceSlices = new ArrayList<PoolSlice.Devices>();
    List<PoolGpu> byMinor =
        input.gpus().stream().sorted(Comparator.comparingInt(g -> g.facts().minor())).toList();
    for (PoolGpu gpu : byMinor) {
      GpuIndex index = gpu.facts().gpu();
      GpuDevices built = devices(gpu, input);
      if (gpu.shares()) {
        built = withTwins(gpu, built, input);
      }
      var gpuReasons = new ArrayList<>(built.reasons());
      List<PoolDevice> devices = built.devices();
      if (input.taintsDropped()) {
        devices = untainted(devices, gpuReasons);
      }
      if (devices.size() > MAX_DEVICES_PER_SLICE) {
        gpuReasons.add(
            devices.size()
                + " devices do not fit one slice: the last "
                + (devices.size() - MAX_DEVICES_PER_SLICE)
                + " in preference order are not published");
        devices = devices.subList(0, MAX_DEVICES_PER_SLICE);
      }
      counterSets.addAll(built.counterSets());
      deviceSlices.add(new PoolSlice.Devices(index, devices));
      free.addAll(built.freePlacements());
      if (!gpuReasons.isEmpty()) {
        reasons.put(index, gpuReasons);
      }
    }
    var slices = new ArrayList<PoolSlice>();
    for (int from = 0; from < counterSets.size(); from += MAX_COUNTER_SETS_PER_SLICE) {
      List<CounterSet> chunk =
          counterSets.subList(
              from, Math.min(from + MAX_COUNTER_SETS_PER_SLICE, counterSets.size()));
      slices.add(new PoolSlice(sliceName(slices.size(), input), new PoolSlice.Counters(chunk)));
    }
    for (PoolSlice.Devices devices : deviceSlices) {
      slices.add(new PoolSlice(sliceName(slices.size(), input), devices));
    }
    return new BuiltPool(new PoolContent(input.driver(), input.node(), slices), reasons, free);
  }

  /** {@code <3 hex digits>-<driver>-<node>}: {@code 000-gpu.nvidia.com-node-1}. */
  public static String sliceName(int index, String driver, String node) {
    if (index < 0 || index > 0xfff) {
      throw new IllegalArgumentException("slice index " + index + " does not fit 3 hex digits");
    }
    return String.format(Locale.ROOT, "%03x-%s-%s", index, driver, node);
  }

  private static String sliceName(int index, Input input) {
    return sliceName(index, input.driver(), input.node());
  }

  private static GpuDevices devices(PoolGpu gpu, Input input) {
    if (!gpu.dynamic()) {
      return StaticDevices.of(gpu, input.health());
    }
    if (gpu.facts().profiles().isEmpty()) {
      GpuDevices whole = StaticDevices.of(gpu, input.health());
      var reasons = new ArrayList<>(whole.reasons());
      reasons.add("dynamic, but NVML lists no MIG profile: published as it is");
      return new GpuDevices(whole.devices(), List.of(), reasons, List.of());
    }
    return DynamicDevices.of(gpu, input.claimed().on(gpu.facts().gpu()), input.health());
  }

  /**
   * {@code built} with the shareable twins of its devices after them. A GPU without MIG (or whose
   * NVML lists no profile) gets a counter set of its memory, consumed whole by the GPU and by its
   * twin, so the two never overlap; a static GPU with MIG on gets none.
   */
  private static GpuDevices withTwins(PoolGpu gpu, GpuDevices built, Input input) {
    GpuFacts facts = gpu.facts();
    var reasons = new ArrayList<>(built.reasons());
    var counterSets = new ArrayList<>(built.counterSets());
    List<PoolDevice> exclusive = built.devices();
    boolean wholeOnly =
        gpu.dynamic() ? facts.profiles().isEmpty() : !gpu.observed().migMode().current();
    if (!gpu.dynamic() && !wholeOnly) {
      reasons.add(
          "shares: true needs dynamic: true on a GPU with MIG on: no shareable twin is published");
      return new GpuDevices(exclusive, counterSets, reasons, built.freePlacements());
    }
    if (wholeOnly) {
      var set =
          new CounterSet(
              GpuCounters.name(facts.minor()),
              new LinkedHashMap<>(Map.of("memory", facts.memoryBytes())));
      counterSets.add(set);
      var consumes = List.of(new CounterConsumption(set.name(), set.counters()));
      exclusive =
          exclusive.stream()
              .map(
                  d ->
                      new PoolDevice(
                          d.name(),
                          d.attributes(),
                          d.capacity(),
                          consumes,
                          d.taints(),
                          d.origin(),
                          d.allocation()))
              .toList();
    }
    var shared = input.claimed().on(facts.gpu());
    var devices = new ArrayList<>(exclusive);
    devices.addAll(
        ShareTwins.of(
            facts,
            exclusive,
            name ->
                (int)
                    shared.stream()
                        .filter(c -> c.deviceName().equals(DeviceNames.shared(name)))
                        .count(),
            reasons));
    return new GpuDevices(devices, counterSets, reasons, built.freePlacements());
  }

  private static List<PoolDevice> untainted(List<PoolDevice> devices, List<String> reasons) {
    var kept = new ArrayList<PoolDevice>(devices.size());
    for (PoolDevice device : devices) {
      if (device.taints().isEmpty()) {
        kept.add(device);
      } else {
        reasons.add(
            device.name()
                + " is unhealthy ("
                + String.join(
                    ", ",
                    device.taints().stream()
                        .map(t -> t.value().isEmpty() ? t.key() : t.key() + "=" + t.value())
                        .toList())
                + ") and the API server drops device taints: it is left out until it recovers");
      }
    }
    return kept;
  }
}
