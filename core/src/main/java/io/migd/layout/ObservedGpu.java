package io.migd.layout;

import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import java.util.List;
import java.util.Objects;

/**
 * One GPU as NVML shows it now: identity, MIG mode (both false on a GPU without MIG), the GPU
 * instances in placement order, the compute processes on it, its device minor number ({@code
 * /dev/nvidia<minor>}; DRA names devices by it), and how its MIG mode changes ({@link
 * MigModeChange}, from NVML's architecture: the one fact every path reads).
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
    int minor,
    MigModeChange modeChange) {
  /** Copies the lists. */
  public ObservedGpu {
    Objects.requireNonNull(index);
    Objects.requireNonNull(modeChange);
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

  /**
   * A GPU whose MIG mode changes as the built-in catalogue says of its PCI device id (tests and
   * replays; {@link MigModeChange#NEEDS_RESET} for a model the catalogue lacks).
   */
  public ObservedGpu(
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
        minor,
        MigModeChange.ofCatalogued(pci.deviceId()));
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
        index,
        uuid,
        name,
        pci,
        memoryMiB,
        migCapable,
        migMode,
        gpuInstances,
        now,
        minor,
        modeChange);
  }

  /**
   * Whether the MIG mode changes at once (Hopper and later, NVML says): in DRA mode the mode of a
   * dynamic GPU then follows its claims, and the GPU can be handed out whole.
   */
  public boolean migModeChangesAtOnce() {
    return modeChange == MigModeChange.AT_ONCE;
  }
}
