package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the kubelet should see of an observed node: MIG slices by the MIG strategy, and whole GPUs
 * (time-sliced into replicas where asked) for the GPUs whose MIG mode is off now. Every device is
 * healthy here; {@link DeviceHealth} marks the others.
 */
public final class InventoryBuilder {
  private InventoryBuilder() {}

  /**
   * The inventory of {@code observed}; {@code replicas} says how many replicas a GPU without MIG is
   * advertised as (1 when absent).
   */
  public static Inventory build(
      ObservedNode observed, Map<GpuIndex, Integer> replicas, MigStrategy strategy) {
    var resources = new TreeMap<String, List<Device>>();
    var notes = new ArrayList<String>();
    var slices = new ArrayList<Slice>();
    for (ObservedGpu gpu : observed.gpus()) {
      if (gpu.migMode().current() && strategy != MigStrategy.NONE) {
        for (LiveGpuInstance gi : gpu.gpuInstances()) {
          for (LiveComputeInstance ci : gi.computeInstances()) {
            slices.add(
                new Slice(
                    ci.profile(),
                    new Device(ci.uuid(), ci.uuid(), gpu.index(), gi.id(), ci.id(), true)));
          }
        }
      } else {
        int count = gpu.migMode().current() ? 1 : replicas.getOrDefault(gpu.index(), 1);
        add(resources, ResourceNames.GPU, wholeGpu(gpu, count));
      }
    }
    switch (strategy) {
      case MIXED -> slices.forEach(s -> add(resources, ResourceNames.mig(s.profile()), s.device()));
      case SINGLE -> {
        var profiles = new TreeSet<String>();
        slices.forEach(s -> profiles.add(s.profile().toString()));
        boolean wholeGpus = resources.containsKey(ResourceNames.GPU);
        if (profiles.size() == 1 && !wholeGpus) {
          slices.forEach(s -> add(resources, ResourceNames.GPU, s.device()));
        } else if (profiles.size() > 1) {
          notes.add(
              "migd.mig-strategy=single needs one slice profile on the node; found "
                  + String.join(", ", profiles)
                  + ": no MIG slice is advertised (mixed would advertise each profile)");
        } else if (!profiles.isEmpty()) {
          notes.add(
              "migd.mig-strategy=single needs every advertised GPU in MIG mode; found whole GPUs"
                  + " beside "
                  + profiles.first()
                  + " slices: no MIG slice is advertised (mixed would advertise both)");
        }
      }
      case NONE -> {}
    }
    return new Inventory(resources, notes);
  }

  private record Slice(ProfileName profile, Device device) {}

  private static List<Device> wholeGpu(ObservedGpu gpu, int count) {
    if (count <= 1) {
      return List.of(
          new Device(
              gpu.uuid(),
              gpu.uuid(),
              gpu.index(),
              Usage.WHOLE_GPU,
              Usage.ALL_COMPUTE_INSTANCES,
              true));
    }
    var devices = new ArrayList<Device>();
    for (int n = 0; n < count; n++) {
      devices.add(
          new Device(
              gpu.uuid() + "::" + n,
              gpu.uuid(),
              gpu.index(),
              Usage.WHOLE_GPU,
              Usage.ALL_COMPUTE_INSTANCES,
              true));
    }
    return devices;
  }

  private static void add(Map<String, List<Device>> resources, String resource, Device device) {
    resources.computeIfAbsent(resource, r -> new ArrayList<>()).add(device);
  }

  private static void add(
      Map<String, List<Device>> resources, String resource, List<Device> devices) {
    resources.computeIfAbsent(resource, r -> new ArrayList<>()).addAll(devices);
  }
}
