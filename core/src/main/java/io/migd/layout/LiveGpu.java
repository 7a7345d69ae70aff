package io.migd.layout;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What changes on a GPU between reconciles, read at the time of a scrape or a call, beside what was
 * last observed of it: the memory in use, the busy ratio (GPUs without MIG; empty where the driver
 * does not sample it), the compute processes (in {@link #gpu()}), and the memory of each GPU
 * instance that has a MIG device, by GPU-instance id.
 */
public record LiveGpu(
    ObservedGpu gpu,
    MemoryInfo memory,
    Optional<Double> utilization,
    Map<Integer, MemoryInfo> gpuInstanceMemory) {
  /** Copies the map. */
  public LiveGpu {
    gpuInstanceMemory = Map.copyOf(gpuInstanceMemory);
  }

  /**
   * Reads the live values of {@code known} (as last observed); call it inside one sequence of NVML
   * calls. Throws {@link NvmlException} naming the call that failed.
   */
  public static LiveGpu read(Nvml nvml, ObservedGpu known) {
    DeviceHandle device = nvml.deviceByIndex(known.index().value());
    ObservedGpu now = known.withProcesses(nvml.computeProcesses(device));
    MemoryInfo memory = nvml.memory(device);
    Optional<Double> utilization =
        known.migMode().current() ? Optional.empty() : utilization(nvml, device);
    var gpuInstanceMemory = new TreeMap<Integer, MemoryInfo>();
    for (LiveGpuInstance gi : known.gpuInstances()) {
      // a MIG device handle answers for its whole GPU instance; one without a compute instance
      // (half made) has no handle, and no memory to show
      gi.computeInstances().stream()
          .map(LiveComputeInstance::uuid)
          .filter(uuid -> !uuid.isEmpty())
          .findFirst()
          .ifPresent(uuid -> gpuInstanceMemory.put(gi.id(), nvml.memory(nvml.deviceByUuid(uuid))));
    }
    return new LiveGpu(now, memory, utilization, gpuInstanceMemory);
  }

  /** {@code known} with the compute processes it runs now; inside one sequence of NVML calls. */
  public static ObservedGpu processes(Nvml nvml, ObservedGpu known) {
    return known.withProcesses(nvml.computeProcesses(nvml.deviceByIndex(known.index().value())));
  }

  private static Optional<Double> utilization(Nvml nvml, DeviceHandle device) {
    try {
      return Optional.of(nvml.utilization(device).gpuPercent() / 100.0);
    } catch (NvmlException e) {
      if (e.code() == NvmlReturn.NOT_SUPPORTED) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
