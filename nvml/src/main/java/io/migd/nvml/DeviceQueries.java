package io.migd.nvml;

import java.util.List;
import java.util.Optional;

/**
 * What NVML says about the driver, the GPUs of the node and their MIG devices: versions, identity,
 * memory, utilisation, compute processes and MIG mode. Reads only.
 */
public interface DeviceQueries {

  /** The driver's version as NVML gives it, such as {@code 580.95.05}. */
  String driverVersion();

  /**
   * The newest CUDA version the driver supports, such as {@code 13.0}; uses the older call when the
   * driver lacks the newer one.
   */
  CudaVersion cudaDriverVersion();

  /** Number of physical GPUs (MIG devices are not counted). */
  int deviceCount();

  /** The GPU at an NVML index. */
  DeviceHandle deviceByIndex(int index);

  /** A GPU ({@code GPU-...}) or MIG device ({@code MIG-...}) by UUID. */
  DeviceHandle deviceByUuid(String uuid);

  /** NVML index of a GPU, or the MIG device index of a MIG device. */
  int index(DeviceHandle device);

  /** The device minor number of a GPU: {@code /dev/nvidia<minor>}. */
  int minorNumber(DeviceHandle device);

  /** UUID of a GPU or MIG device. */
  String uuid(DeviceHandle device);

  /** Product name of a GPU or MIG device. */
  String name(DeviceHandle device);

  /** Brand of a GPU. */
  GpuBrand brand(DeviceHandle device);

  /** Architecture of a GPU. */
  GpuArchitecture architecture(DeviceHandle device);

  /** CUDA compute capability of a GPU, such as {@code 9.0}. */
  CudaVersion cudaComputeCapability(DeviceHandle device);

  /** PCI identity of a GPU. */
  PciInfo pciInfo(DeviceHandle device);

  /**
   * Memory of a GPU, or of the GPU instance behind a MIG device handle; uses the older call when
   * the driver lacks the newer one.
   */
  MemoryInfo memory(DeviceHandle device);

  /** Utilisation of a GPU without MIG. */
  Utilization utilization(DeviceHandle device);

  /** Processes with a compute context on a GPU (all) or on a MIG device (its instance only). */
  List<ProcessInfo> computeProcesses(DeviceHandle device);

  /** The name of a process, for messages that say who holds a slice. */
  String processName(int pid);

  /** Current and pending MIG mode; {@code NOT_SUPPORTED} on a GPU without MIG. */
  MigMode migMode(DeviceHandle device);

  /** Upper bound of MIG device indexes; 0 when MIG is disabled. */
  int maxMigDeviceCount(DeviceHandle device);

  /** The MIG device at an index, or empty for an index with no device. */
  Optional<DeviceHandle> migDeviceByIndex(DeviceHandle device, int index);

  /** The GPU-instance id behind a MIG device. */
  int gpuInstanceId(DeviceHandle migDevice);

  /** The compute-instance id behind a MIG device. */
  int computeInstanceId(DeviceHandle migDevice);
}
