package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.reconcile.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the kubelet should see of an observed node: MIG slices by the MIG strategy, and whole GPUs
 * for the GPUs whose MIG mode is off now, each shared (time-sliced or by MPS) into replicas where
 * asked. Every device is healthy here; {@link DeviceHealth} marks the others.
 */
public final class InventoryBuilder {
  private InventoryBuilder() {}

  /**
   * The inventory of {@code observed}; {@code replicas} says how many time-sliced replicas a GPU
   * without MIG is advertised as (1 when absent).
   */
  public static Inventory build(
      ObservedNode observed, Map<GpuIndex, Integer> replicas, MigStrategy strategy) {
    return build(observed, NodeSharing.timeSliced(replicas), strategy);
  }

  /**
   * The inventory of the node as a reconcile left it, each GPU and slice shared as the reconcile
   * resolved the intent for it.
   */
  public static Inventory build(Outcome outcome, MigStrategy strategy) {
    return build(outcome, strategy, NumaNodes.UNKNOWN);
  }

  /**
   * The inventory of the node as a reconcile left it, each device carrying the NUMA node {@code
   * numa} gives its GPU.
   */
  public static Inventory build(Outcome outcome, MigStrategy strategy, NumaNodes numa) {
    return build(outcome.observed(), NodeSharing.of(outcome), strategy, numa);
  }

  /**
   * The inventory of {@code observed}, each whole GPU and MIG slice advertised as as many replicas
   * as {@code sharing} says ({@code <parent UUID>::<n>}).
   */
  public static Inventory build(ObservedNode observed, NodeSharing sharing, MigStrategy strategy) {
    return build(observed, sharing, strategy, NumaNodes.UNKNOWN);
  }

  /**
   * The inventory of {@code observed} shared as {@code sharing} says, each device (slices and
   * replicas included) carrying the NUMA node {@code numa} gives its GPU.
   */
  public static Inventory build(
      ObservedNode observed, NodeSharing sharing, MigStrategy strategy, NumaNodes numa) {
    var resources = new TreeMap<String, List<Device>>();
    var notes = new ArrayList<String>();
    var slices = new ArrayList<Slice>();
    for (ObservedGpu gpu : observed.gpus()) {
      int node = numa.of(gpu);
      if (gpu.migMode().current() && strategy != MigStrategy.NONE) {
        for (LiveGpuInstance gi : gpu.gpuInstances()) {
          for (LiveComputeInstance ci : gi.computeInstances()) {
            var shared = sharing.slice(gpu.index(), ci.profile());
            for (Device device : replicas(ci.uuid(), gpu.index(), gi.id(), ci.id(), shared, node)) {
              slices.add(new Slice(ci.profile(), device));
            }
          }
        }
      } else {
        var shared = gpu.migMode().current() ? Device.UNSHARED : sharing.gpu(gpu.index());
        add(
            resources,
            ResourceNames.offered(ResourceNames.GPU, shared),
            replicas(
                gpu.uuid(),
                gpu.index(),
                Usage.WHOLE_GPU,
                Usage.ALL_COMPUTE_INSTANCES,
                shared,
                node));
      }
    }
    switch (strategy) {
      case MIXED ->
          slices.forEach(
              s ->
                  add(
                      resources,
                      ResourceNames.offered(ResourceNames.mig(s.profile()), s.device().sharing()),
                      s.device()));
      case SINGLE -> {
        var profiles = new TreeSet<String>();
        slices.forEach(s -> profiles.add(s.profile().toString()));
        boolean wholeGpus = !resources.isEmpty();
        if (profiles.size() == 1 && !wholeGpus) {
          slices.forEach(
              s ->
                  add(
                      resources,
                      ResourceNames.offered(ResourceNames.GPU, s.device().sharing()),
                      s.device()));
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

  /**
   * The devices of one parent: itself when not shared, else its replicas (MPS replicas always carry
   * {@code ::n}, so that one replica is still told apart from the parent).
   */
  private static List<Device> replicas(
      String uuid,
      GpuIndex gpu,
      int gpuInstanceId,
      int computeInstanceId,
      Sharing sharing,
      int numaNode) {
    if (sharing.replicas() <= 1 && sharing instanceof Sharing.TimeSliced) {
      return List.of(
          new Device(
              uuid, uuid, gpu, gpuInstanceId, computeInstanceId, true, Device.UNSHARED, numaNode));
    }
    var devices = new ArrayList<Device>();
    for (int n = 0; n < sharing.replicas(); n++) {
      devices.add(
          new Device(
              uuid + "::" + n,
              uuid,
              gpu,
              gpuInstanceId,
              computeInstanceId,
              true,
              sharing,
              numaNode));
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
