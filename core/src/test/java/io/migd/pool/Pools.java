package io.migd.pool;

import io.migd.claims.ClaimedDevice;
import io.migd.claims.ClaimedDevices;
import io.migd.layout.ObservedGpu;
import java.util.List;
import java.util.stream.Stream;

/** Builds pools for the pool package's tests. */
final class Pools {
  static final String DRIVER = "gpu.nvidia.com";
  static final String NODE = "node-a";

  private Pools() {}

  static BuiltPool build(List<PoolGpu> gpus, ClaimedDevices claimed, DeviceTaints health) {
    return PoolBuilder.build(new PoolBuilder.Input(DRIVER, NODE, gpus, claimed, health, false));
  }

  static BuiltPool build(PoolGpu... gpus) {
    return build(List.of(gpus), ClaimedDevices.NONE, DeviceTaints.NONE);
  }

  static PoolGpu dynamic(GpuFacts facts, ObservedGpu observed) {
    return new PoolGpu(facts, observed, true);
  }

  static PoolGpu fixed(GpuFacts facts, ObservedGpu observed) {
    return new PoolGpu(facts, observed, false);
  }

  /** A completed claim owning the device at GPU instance {@code giId}, compute instance 0. */
  static ClaimedDevice claimed(
      GpuFacts facts, String claim, String device, int giId, int start, int size) {
    return new ClaimedDevice(
        "uid-" + claim,
        "default",
        claim,
        device,
        facts.gpu(),
        facts.uuid(),
        giId,
        0,
        start,
        size,
        Facts.migUuid(facts, giId, 0),
        true);
  }

  static ClaimedDevices claims(ClaimedDevice... devices) {
    List<ClaimedDevice> all = List.of(devices);
    return () -> all;
  }

  /** The names of the devices of the slice of GPU {@code index}, in listed order. */
  static List<String> deviceNames(BuiltPool pool, int index) {
    return devices(pool, index).stream().map(PoolDevice::name).toList();
  }

  static List<PoolDevice> devices(BuiltPool pool, int index) {
    return pool.content().slices().stream()
        .map(PoolSlice::content)
        .flatMap(
            c ->
                c instanceof PoolSlice.Devices(var gpu, var devices) && gpu.value() == index
                    ? devices.stream()
                    : Stream.empty())
        .toList();
  }

  static List<CounterSet> counterSets(BuiltPool pool) {
    return pool.content().slices().stream()
        .map(PoolSlice::content)
        .flatMap(c -> c instanceof PoolSlice.Counters(var sets) ? sets.stream() : Stream.empty())
        .toList();
  }
}
