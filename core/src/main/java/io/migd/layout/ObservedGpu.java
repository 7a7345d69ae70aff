package io.migd.layout;

import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import java.util.List;
import java.util.Objects;

/**
 * One GPU as NVML shows it now: identity, MIG mode (both false on a GPU without MIG), the GPU
 * instances in placement order, the compute processes on it, and its device minor number ({@code
 * /dev/nvidia<minor>}; DRA names devices by it).
 */
public record ObservedGpu(
    GpuIndex index,
    String uuid,
    String name,
    PciInfo pci,
    long memoryMiB,
    boolean migCapable,
    MigMode migMode,
    List<LiveGpuInstance> gpuInstances,
    List<ProcessInfo> processes,
    int minor) {
  /** Copies the lists. */
  public ObservedGpu {
    Objects.requireNonNull(index);
    Objects.requireNonNull(uuid);
    Objects.requireNonNull(pci);
    Objects.requireNonNull(migMode);
    gpuInstances = List.copyOf(gpuInstances);
    processes = List.copyOf(processes);
    if (minor < 0) {
      throw new IllegalArgumentException(
          "GPU " + index + ": minor number " + minor + " is negative");
    }
  }

  /** A GPU whose minor number is its index, as on most nodes (tests and replays). */
  public ObservedGpu(
      GpuIndex index,
      String uuid,
      String name,
      PciInfo pci,
      long memoryMiB,
      boolean migCapable,
      MigMode migMode,
      List<LiveGpuInstance> gpuInstances,
      List<ProcessInfo> processes) {
    this(
        index,
        uuid,
        name,
        pci,
        memoryMiB,
        migCapable,
        migMode,
        gpuInstances,
        processes,
        index.value());
  }

  /** This GPU with the processes read now in place of those observed. */
  public ObservedGpu withProcesses(List<ProcessInfo> now) {
    return new ObservedGpu(
        index, uuid, name, pci, memoryMiB, migCapable, migMode, gpuInstances, now, minor);
  }
}
