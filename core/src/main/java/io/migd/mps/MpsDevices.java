package io.migd.mps;

import io.migd.devices.NodeSharing;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.ProcessInfo;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Sharing;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Which devices of a node are shared by MPS, and who uses one. */
final class MpsDevices {
  private MpsDevices() {}

  /**
   * The devices of {@code observed} that {@code sharing} shares by MPS: whole GPUs with MIG off,
   * and MIG slices of an MPS-shared profile.
   */
  static List<MpsDevice> wanted(
      ObservedNode observed, NodeSharing sharing, GpuModelCatalog catalog) {
    var wanted = new ArrayList<MpsDevice>();
    for (ObservedGpu gpu : observed.gpus()) {
      if (!gpu.migMode().current()) {
        if (sharing.gpu(gpu.index()) instanceof Sharing.Mps(var n, _)) {
          wanted.add(
              new MpsDevice(
                  gpu.uuid(),
                  gpu.index(),
                  Usage.WHOLE_GPU,
                  Usage.ALL_COMPUTE_INSTANCES,
                  n,
                  gpu.memoryMiB()));
        }
        continue;
      }
      for (LiveGpuInstance gi : gpu.gpuInstances()) {
        for (LiveComputeInstance ci : gi.computeInstances()) {
          if (sharing.slice(gpu.index(), ci.profile()) instanceof Sharing.Mps(var n, _)) {
            wanted.add(
                new MpsDevice(
                    ci.uuid(), gpu.index(), gi.id(), ci.id(), n, memory(gpu, gi, catalog)));
          }
        }
      }
    }
    return wanted;
  }

  /** A GPU instance's memory, which its compute instances share, from the catalogue. */
  private static long memory(ObservedGpu gpu, LiveGpuInstance gi, GpuModelCatalog catalog) {
    return catalog
        .byPciDeviceId(gpu.pci().deviceId())
        .flatMap(m -> m.giProfile(gi.profile()))
        .map(p -> p.memoryMib())
        .orElse(gpu.memoryMiB() * gi.placement().size() / 8);
  }

  /**
   * The processes NVML shows on the GPU or MIG device {@code uuid}, other than {@code excluded}
   * (its MPS daemon and servers): the clients that keep a daemon running.
   */
  static List<String> clients(ObservedNode observed, String uuid, Set<Long> excluded) {
    var clients = new ArrayList<String>();
    for (ObservedGpu gpu : observed.gpus()) {
      for (ProcessInfo p : gpu.processes()) {
        if (excluded.contains((long) p.pid())) {
          continue;
        }
        boolean onDevice = gpu.uuid().equals(uuid);
        for (LiveGpuInstance gi : gpu.gpuInstances()) {
          for (LiveComputeInstance ci : gi.computeInstances()) {
            onDevice |=
                ci.uuid().equals(uuid)
                    && p.gpuInstanceId() == gi.id()
                    && (p.computeInstanceId() == ci.id()
                        || p.computeInstanceId() == ProcessInfo.NO_INSTANCE);
          }
        }
        if (onDevice) {
          clients.add("process " + p.pid());
        }
      }
    }
    return clients;
  }
}
