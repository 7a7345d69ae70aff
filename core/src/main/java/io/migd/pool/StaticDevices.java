package io.migd.pool;

import io.migd.layout.DeviceNames;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.Usage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The devices of a static GPU: what exists. The whole GPU while MIG is off; with MIG on, every
 * compute instance, named by its GPU instance when it spans it and with {@code -ci<start>} when it
 * does not. Static devices consume no counters: nothing is created for them.
 */
final class StaticDevices {
  private StaticDevices() {}

  /** A MIG device with what orders it: profile memory, profile id, placement, compute slice. */
  private record Ordered(
      long memoryMiB, int giProfileId, int start, int ciStart, PoolDevice device) {}

  static GpuDevices of(PoolGpu gpu, DeviceTaints health) {
    GpuFacts facts = gpu.facts();
    var reasons = new ArrayList<String>();
    var attributes = new DeviceAttributes(facts, reasons);
    if (!gpu.observed().migMode().current()) {
      var whole =
          new PoolDevice(
              DeviceNames.wholeGpu(facts.minor()),
              attributes.wholeGpu(),
              attributes.wholeGpuCapacity(),
              List.of(),
              health.of(facts.gpu(), Usage.WHOLE_GPU),
              new DeviceOrigin.WholeGpu(facts.gpu(), facts.uuid(), false));
      return new GpuDevices(List.of(whole), List.of(), reasons, List.of());
    }
    var devices = new ArrayList<Ordered>();
    for (LiveGpuInstance gi : gpu.observed().gpuInstances()) {
      Optional<GpuFacts.MigProfile> profile =
          facts.profiles().stream().filter(p -> p.giProfileId() == gi.profileId()).findFirst();
      if (profile.isEmpty()) {
        reasons.add(
            "GPU instance "
                + gi.id()
                + " ("
                + gi.profile()
                + ", profile id "
                + gi.profileId()
                + ") has a profile NVML did not list: it is published without capacity");
      }
      for (LiveComputeInstance ci : gi.computeInstances()) {
        devices.add(
            new Ordered(
                profile.map(GpuFacts.MigProfile::memoryMiB).orElse(0L),
                gi.profileId(),
                gi.placement().start(),
                ci.placement().start(),
                device(facts, attributes, health, gi, ci, profile, List.of())));
      }
    }
    return new GpuDevices(
        devices.stream()
            .sorted(
                Comparator.comparingLong(Ordered::memoryMiB)
                    .thenComparingInt(Ordered::giProfileId)
                    .thenComparingInt(Ordered::start)
                    .thenComparingInt(Ordered::ciStart))
            .map(Ordered::device)
            .toList(),
        List.of(),
        reasons,
        List.of());
  }

  /**
   * The device of compute instance {@code ci} of {@code gi}, as it exists. On a dynamic GPU (a
   * compute instance a claim prepared while the GPU was static) it consumes {@code consumes}.
   */
  static PoolDevice device(
      GpuFacts facts,
      DeviceAttributes attributes,
      DeviceTaints health,
      LiveGpuInstance gi,
      LiveComputeInstance ci,
      Optional<GpuFacts.MigProfile> profile,
      List<CounterConsumption> consumes) {
    boolean spans = !ci.profile().hasComputeInstancePart();
    int start = gi.placement().start();
    String name =
        spans
            ? DeviceNames.mig(facts.minor(), gi.profile().toString(), gi.profileId(), start)
            : DeviceNames.computeInstance(
                facts.minor(),
                ci.profile().toString(),
                gi.profileId(),
                start,
                ci.placement().start());
    return new PoolDevice(
        name,
        attributes.mig(ci.profile().toString(), start, gi.placement().size(), ci.uuid()),
        profile.map(p -> DeviceAttributes.migCapacity(p, spans)).orElseGet(TreeMap::new),
        consumes,
        health.of(facts.gpu(), gi.id()),
        new DeviceOrigin.StaticSlice(facts.gpu(), facts.uuid(), gi.id(), ci.id(), ci.uuid()));
  }
}
