package io.migd.kubelet;

import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's inventory for the device plugin tests: 1g slices on two GPUs (one unhealthy), a 3g
 * slice, and two time-sliced GPUs with two replicas each.
 */
final class SampleNode {
  static final String MIG_1G = "nvidia.com/mig-1g.10gb";
  static final String MIG_3G = "nvidia.com/mig-3g.40gb";
  static final String GPU = "nvidia.com/gpu";

  static final String MIG_A = "MIG-4b8c8d0a-0f0e-5a54-9f43-5a1b2c3d4e5f";
  static final String MIG_B = "MIG-9e2f1a3b-7c6d-5e4f-8a9b-0c1d2e3f4a5b";
  static final String MIG_C = "MIG-1a2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d";
  static final String MIG_BIG = "MIG-77aa88bb-99cc-5dde-8eff-001122334455";
  static final String GPU_X = "GPU-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  static final String GPU_Y = "GPU-a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90";

  private SampleNode() {}

  /** Three resources: slices on two GPUs (one unhealthy), a big slice, and time-sliced GPUs. */
  static Inventory node() {
    var resources = new TreeMap<String, List<Device>>();
    resources.put(
        MIG_1G, List.of(mig(MIG_A, 0, 1, true), mig(MIG_B, 0, 2, false), mig(MIG_C, 1, 1, true)));
    resources.put(MIG_3G, List.of(mig(MIG_BIG, 1, 2, true)));
    resources.put(GPU, gpuReplicas());
    return new Inventory(resources, List.of());
  }

  static Device mig(String uuid, int gpu, int gi, boolean healthy) {
    return new Device(uuid, uuid, new GpuIndex(gpu), gi, 0, healthy);
  }

  static List<Device> gpuReplicas() {
    var replicas = new ArrayList<Device>();
    for (var gpu : List.of(Map.entry(GPU_X, 2), Map.entry(GPU_Y, 3))) {
      for (int n = 0; n < 2; n++) {
        replicas.add(
            new Device(
                gpu.getKey() + "::" + n,
                gpu.getKey(),
                new GpuIndex(gpu.getValue()),
                Usage.WHOLE_GPU,
                Usage.ALL_COMPUTE_INSTANCES,
                true));
      }
    }
    return replicas;
  }
}
