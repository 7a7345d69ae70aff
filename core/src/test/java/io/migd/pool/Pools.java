package io.migd.pool;

import io.migd.layout.ObservedGpu;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
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

  /**
   * A completed claim owning the device at GPU instance {@code giId}, compute instance 0 (at {@code
   * start}/{@code size}, as NVML shows it: the claim records the instance's ids).
   */
  static ClaimedDevice claimed(
      GpuFacts facts, String claim, String device, int giId, int start, int size) {
    return claimed(facts, claim, device, giId, 0);
  }

  /**
   * A completed claim owning the MIG device of GPU instance {@code giId}, compute instance {@code
   * ciId}.
   */
  static ClaimedDevice claimed(GpuFacts facts, String claim, String device, int giId, int ciId) {
    return owner(
        claim,
        new ClaimDevice.Made(
            device,
            facts.gpu(),
            facts.uuid(),
            new ClaimDevice.MigInstance(giId, ciId, Facts.migUuid(facts, giId, ciId))));
  }

  /** A completed claim owning the GPU whole. */
  static ClaimedDevice wholeClaimed(GpuFacts facts, String claim) {
    return owner(claim, new ClaimDevice.Whole("gpu-" + facts.minor(), facts.gpu(), facts.uuid()));
  }

  private static ClaimedDevice owner(String claim, ClaimDevice device) {
    var entry = new CheckpointClaim.Device(device, Kind.STATIC, List.of(), List.of(), "");
    return new ClaimedDevice(
        new CheckpointClaim(new ClaimKey("uid-" + claim, "default", claim), true, List.of(entry)),
        entry);
  }

  static ClaimedDevices claims(ClaimedDevice... devices) {
    List<CheckpointClaim> all =
        Stream.of(devices).map(d -> d.claim().with(true, List.of(d.entry()))).toList();
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
