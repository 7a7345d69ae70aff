package io.migd.pool;

import io.migd.layout.GpuIndex;
import io.migd.nvml.InstancePlacement;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What the pool says of one GPU that does not change while it runs: identity, the attributes
 * NVIDIA's driver publishes, and, for a MIG-capable GPU, every GPU-instance profile with its
 * capacity and every placement NVML lists for it. Read once per GPU (by UUID) and kept.
 *
 * @param minor the device minor number, {@code /dev/nvidia<minor>}
 * @param productName NVML's name, {@code NVIDIA H100 80GB HBM3}
 * @param brand NVML's brand in NVIDIA's spelling, {@code Nvidia}, {@code Tesla}
 * @param architecture NVIDIA's architecture name, {@code Hopper}
 * @param cudaComputeCapability as NVML gives it, {@code 9.0} (the pool writes it as semver)
 * @param driverVersion as NVML gives it, {@code 580.95.05}
 * @param cudaDriverVersion as NVML gives it, {@code 13.0}
 * @param pciBusId sysfs form, lower case: {@code 0000:3b:00.0}
 * @param pcieRoot the PCIe root complex, {@code pci0000:3a}; empty when unknown
 * @param numaNode the NUMA node; empty when unknown
 * @param memoryBytes the GPU's memory
 * @param profiles the GPU-instance profiles, in NVML's profile index order; empty without MIG
 */
public record GpuFacts(
    GpuIndex gpu,
    int minor,
    String uuid,
    String productName,
    String brand,
    String architecture,
    String cudaComputeCapability,
    String driverVersion,
    String cudaDriverVersion,
    String pciBusId,
    String pcieRoot,
    OptionalInt numaNode,
    long memoryBytes,
    List<MigProfile> profiles) {

  /**
   * A GPU-instance profile and where it can be placed.
   *
   * @param name the profile as migd names it, {@code 1g.10gb}, {@code 1g.10gb+me}
   * @param sliceCount memory slices one instance takes
   * @param placements every placement NVML lists, free or not, by start
   */
  public record MigProfile(
      int giProfileId,
      String name,
      long memoryMiB,
      int sliceCount,
      int multiprocessors,
      int copyEngines,
      int decoders,
      int encoders,
      int jpegEngines,
      int ofaEngines,
      List<InstancePlacement> placements) {
    /** Copies the list. */
    public MigProfile {
      Objects.requireNonNull(name);
      placements = List.copyOf(placements);
    }
  }

  /** Copies the list. */
  public GpuFacts {
    Objects.requireNonNull(gpu);
    Objects.requireNonNull(uuid);
    Objects.requireNonNull(productName);
    Objects.requireNonNull(brand);
    Objects.requireNonNull(architecture);
    Objects.requireNonNull(cudaComputeCapability);
    Objects.requireNonNull(driverVersion);
    Objects.requireNonNull(cudaDriverVersion);
    Objects.requireNonNull(pciBusId);
    Objects.requireNonNull(pcieRoot);
    Objects.requireNonNull(numaNode);
    profiles = List.copyOf(profiles);
  }
}
