package io.migd.node.dra;

import io.migd.layout.GpuIndex;
import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Pools built by hand, shaped as DESIGN section 12 says (the pool builder is not the subject here):
 * counter-only slices of at most 8 counter sets, then one device-only slice per GPU, each dynamic
 * GPU an A100-like set of placements (1g at 0..6, 3g at 0 and 4, the whole GPU).
 */
final class TestPools {
  static final String DRIVER = "gpu.nvidia.com";

  private TestPools() {}

  /** {@code <3 hex digits>-<driver>-<node>}. */
  static String sliceName(int index, String node) {
    return String.format("%03x-%s-%s", index, DRIVER, node);
  }

  /** A node of {@code gpus} dynamic GPUs, none tainted. */
  static PoolContent dynamicNode(String node, int gpus) {
    return dynamicNode(node, gpus, Map.of());
  }

  /** A node of {@code gpus} dynamic GPUs, the GPUs of {@code taints}'s keys' devices tainted. */
  static PoolContent dynamicNode(String node, int gpus, Map<Integer, Taint> taints) {
    var slices = new ArrayList<PoolSlice>();
    int counterSlices = (gpus + 7) / 8;
    for (int c = 0; c < counterSlices; c++) {
      slices.add(
          new PoolSlice(
              sliceName(c, node),
              new PoolSlice.Counters(
                  IntStream.range(c * 8, Math.min(gpus, c * 8 + 8))
                      .mapToObj(TestPools::counterSet)
                      .toList())));
    }
    for (int gpu = 0; gpu < gpus; gpu++) {
      Taint taint = taints.get(gpu);
      slices.add(
          new PoolSlice(
              sliceName(counterSlices + gpu, node),
              new PoolSlice.Devices(
                  new GpuIndex(gpu), devices(gpu, taint == null ? List.of() : List.of(taint)))));
    }
    return new PoolContent(DRIVER, node, slices);
  }

  /** The same pool with GPU {@code gpu}'s devices left out but {@code keep}. */
  static PoolContent withDevices(PoolContent content, int gpu, int keep) {
    return new PoolContent(
        content.driver(),
        content.pool(),
        content.slices().stream()
            .map(
                slice ->
                    slice.content() instanceof PoolSlice.Devices(var index, var devices)
                            && index.value() == gpu
                        ? new PoolSlice(
                            slice.name(), new PoolSlice.Devices(index, devices.subList(0, keep)))
                        : slice)
            .toList());
  }

  static CounterSet counterSet(int gpu) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = 0; i < 8; i++) {
      counters.put("memory-slice-" + i, 1L);
    }
    counters.put("memory", 40L << 30);
    counters.put("multiprocessors", 98L);
    return new CounterSet("gpu-" + gpu + "-counter-set", counters);
  }

  static List<PoolDevice> devices(int gpu, List<Taint> taints) {
    var devices = new ArrayList<PoolDevice>();
    for (int start = 0; start < 7; start++) {
      devices.add(mig(gpu, "1g.5gb", 19, start, 1, 5L << 30, 14, taints));
    }
    devices.add(mig(gpu, "3g.20gb", 9, 4, 4, 20L << 30, 42, taints));
    devices.add(mig(gpu, "3g.20gb", 9, 0, 4, 20L << 30, 42, taints));
    var attributes = common(gpu);
    attributes.put("type", new Attribute.Text("gpu"));
    attributes.put("uuid", new Attribute.Text(gpuUuid(gpu)));
    devices.add(
        new PoolDevice(
            "gpu-" + gpu,
            attributes,
            new TreeMap<>(Map.of("memory", 40L << 30, "multiprocessors", 98L)),
            List.of(
                new CounterConsumption("gpu-" + gpu + "-counter-set", counterSet(gpu).counters())),
            taints,
            new DeviceOrigin.WholeGpu(new GpuIndex(gpu), gpuUuid(gpu), true)));
    return devices;
  }

  private static PoolDevice mig(
      int gpu,
      String profile,
      int giProfileId,
      int start,
      int size,
      long memory,
      long multiprocessors,
      List<Taint> taints) {
    var attributes = common(gpu);
    attributes.put("type", new Attribute.Text("mig"));
    attributes.put("parentUUID", new Attribute.Text(gpuUuid(gpu)));
    attributes.put("profile", new Attribute.Text(profile));
    attributes.put("placementStart", new Attribute.Int(start));
    attributes.put("placementSize", new Attribute.Int(size));
    var consumed = new LinkedHashMap<String, Long>();
    for (int i = start; i < start + size; i++) {
      consumed.put("memory-slice-" + i, 1L);
    }
    consumed.put("memory", memory);
    consumed.put("multiprocessors", multiprocessors);
    String name =
        "gpu-" + gpu + "-mig-" + profile.replace(".", "") + "-" + giProfileId + "-" + start;
    return new PoolDevice(
        name,
        attributes,
        new TreeMap<>(Map.of("memory", memory, "multiprocessors", multiprocessors)),
        List.of(new CounterConsumption("gpu-" + gpu + "-counter-set", consumed)),
        taints,
        new DeviceOrigin.DynamicPlacement(
            new GpuIndex(gpu), gpuUuid(gpu), profile, giProfileId, start, size));
  }

  private static TreeMap<String, Attribute> common(int gpu) {
    var attributes = new TreeMap<String, Attribute>();
    attributes.put("index", new Attribute.Int(gpu));
    attributes.put("minor", new Attribute.Int(gpu));
    attributes.put("productName", new Attribute.Text("NVIDIA A100-SXM4-40GB"));
    attributes.put("driverVersion", new Attribute.Version("580.95.5"));
    attributes.put("cudaComputeCapability", new Attribute.Version("8.0.0"));
    attributes.put("migCapable", new Attribute.Bool(true));
    attributes.put(
        "resource.kubernetes.io/pciBusID",
        new Attribute.Text(String.format("0000:%02x:00.0", 0x10 + gpu)));
    return attributes;
  }

  static String gpuUuid(int gpu) {
    return String.format("GPU-00000000-0000-0000-0000-%012d", gpu);
  }
}
