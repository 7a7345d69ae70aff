package io.migd.pool.testing;

import io.migd.layout.GpuIndex;
import io.migd.pool.Allocation;
import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.RequestPolicy;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * A small pool for allocator and validator tests: GPUs of 4 memory slices, each with a counter set
 * {@code gpu-<n>-counter-set} of {@code memory-slice-0..3}, and the devices {@code 1g} at 0..3,
 * {@code 2g} at 0 and 2, {@code 4g} at 0 (10 GiB a memory slice), then the whole GPU; with shares,
 * then a twin of each ({@link #twin}).
 */
final class ToyPool {
  static final String DRIVER = "gpu.nvidia.com";
  static final String NODE = "node-a";
  static final long GIB = 1L << 30;
  static final long MIB = 1L << 20;

  /** A twin's memory policy: at least 1 GiB, in steps of 256 MiB, 1 GiB by default. */
  static final RequestPolicy MEMORY =
      new RequestPolicy.Range(GIB, GIB, OptionalLong.empty(), OptionalLong.of(256 * MIB));

  /** A twin's compute policy (percent): 3 to 100, in steps of 1, 3 by default. */
  static final RequestPolicy COMPUTE =
      new RequestPolicy.Range(3, 3, OptionalLong.of(100), OptionalLong.of(1));

  private static final int SLICES = 4;

  private ToyPool() {}

  /** {@code gpus} GPUs published under {@code generation}: one counter slice, one per GPU. */
  static List<PublishedSlice> pool(int gpus, long generation) {
    return publishGpus(gpus, generation, ToyPool::gpu);
  }

  /**
   * {@code gpus} GPUs published under {@code generation}, each GPU's devices followed by their
   * twins.
   */
  static List<PublishedSlice> sharedPool(int gpus, long generation) {
    return publishGpus(
        gpus,
        generation,
        gpu -> {
          var devices = new ArrayList<>(gpu(gpu));
          gpu(gpu).forEach(d -> devices.add(twin(d)));
          return devices;
        });
  }

  private static List<PublishedSlice> publishGpus(
      int gpus, long generation, IntFunction<List<PoolDevice>> devices) {
    var slices = new ArrayList<PoolSlice>();
    var sets = new ArrayList<CounterSet>();
    for (int gpu = 0; gpu < gpus; gpu++) {
      sets.add(counterSet(gpu));
    }
    slices.add(new PoolSlice(sliceName(0), new PoolSlice.Counters(sets)));
    for (int gpu = 0; gpu < gpus; gpu++) {
      slices.add(
          new PoolSlice(
              sliceName(gpu + 1), new PoolSlice.Devices(new GpuIndex(gpu), devices.apply(gpu))));
    }
    return publish(slices, generation);
  }

  /**
   * The shareable twin of {@code device}: {@code <name>-shared}, type {@code <type>-share}, the
   * same counters, capacities {@code memory} (the device's, {@link #MEMORY}) and {@code compute}
   * (100, {@link #COMPUTE}).
   */
  static PoolDevice twin(PoolDevice device) {
    return twin(
        device,
        new TreeMap<>(Map.of("memory", device.capacity().get("memory"), "compute", 100L)),
        Map.of("memory", MEMORY, "compute", COMPUTE));
  }

  /** The shareable twin of {@code device} with these capacities and policies. */
  static PoolDevice twin(
      PoolDevice device, Map<String, Long> capacity, Map<String, RequestPolicy> policies) {
    var attributes = new TreeMap<>(device.attributes());
    if (attributes.get("type") instanceof Attribute.Text(var type)) {
      attributes.put("type", new Attribute.Text(type + "-share"));
    }
    return new PoolDevice(
        device.name() + "-shared",
        attributes,
        new TreeMap<>(capacity),
        device.consumes(),
        device.taints(),
        device.origin(),
        new Allocation.Shared(new TreeMap<>(policies)));
  }

  /** These slices published under {@code generation} with the full count. */
  static List<PublishedSlice> publish(List<PoolSlice> slices, long generation) {
    return slices.stream()
        .map(s -> new PublishedSlice(DRIVER, NODE, s, generation, slices.size()))
        .toList();
  }

  static String sliceName(int index) {
    return "%03x-%s-%s".formatted(index, DRIVER, NODE);
  }

  static CounterSet counterSet(int gpu) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = 0; i < SLICES; i++) {
      counters.put("memory-slice-" + i, 1L);
    }
    return new CounterSet(counterSetName(gpu), counters);
  }

  static String counterSetName(int gpu) {
    return "gpu-" + gpu + "-counter-set";
  }

  /** One GPU's devices in listed order. */
  static List<PoolDevice> gpu(int gpu) {
    var devices = new ArrayList<PoolDevice>();
    for (int start = 0; start < SLICES; start++) {
      devices.add(mig(gpu, "1g", start, 1));
    }
    devices.add(mig(gpu, "2g", 0, 2));
    devices.add(mig(gpu, "2g", 2, 2));
    devices.add(mig(gpu, "4g", 0, 4));
    devices.add(whole(gpu));
    return devices;
  }

  static PoolDevice mig(int gpu, String profile, int start, int size) {
    var attributes = new TreeMap<String, Attribute>();
    attributes.put("type", new Attribute.Text("mig"));
    attributes.put("profile", new Attribute.Text(profile));
    return new PoolDevice(
        "gpu-" + gpu + "-mig-" + profile + "-" + start,
        attributes,
        new TreeMap<>(Map.of("memory", size * 10 * GIB)),
        List.of(memorySlices(gpu, start, size)),
        List.of(),
        new DeviceOrigin.DynamicPlacement(
            new GpuIndex(gpu), "GPU-" + gpu, profile, size, start, size));
  }

  static PoolDevice whole(int gpu) {
    return new PoolDevice(
        "gpu-" + gpu,
        new TreeMap<>(Map.of("type", new Attribute.Text("gpu"))),
        new TreeMap<>(Map.of("memory", SLICES * 10 * GIB)),
        List.of(memorySlices(gpu, 0, SLICES)),
        List.of(),
        new DeviceOrigin.WholeGpu(new GpuIndex(gpu), "GPU-" + gpu, true));
  }

  static CounterConsumption memorySlices(int gpu, int start, int size) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = start; i < start + size; i++) {
      counters.put("memory-slice-" + i, 1L);
    }
    return new CounterConsumption(counterSetName(gpu), counters);
  }

  /** The device with these taints. */
  static PoolDevice tainted(PoolDevice device, Taint... taints) {
    return new PoolDevice(
        device.name(),
        device.attributes(),
        device.capacity(),
        device.consumes(),
        List.of(taints),
        device.origin());
  }
}
