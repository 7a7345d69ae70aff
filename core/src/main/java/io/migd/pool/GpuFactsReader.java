package io.migd.pool;

import io.migd.layout.ModelSource;
import io.migd.layout.ObservedGpu;
import io.migd.layout.PciSysfs;
import io.migd.nvml.CudaVersion;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.GpuBrand;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@link GpuFacts} of an observed GPU: what NVML says of the driver and the GPU (brand,
 * architecture and versions in NVIDIA's spelling, memory), where sysfs places it (PCIe root, NUMA
 * node), and, for a MIG-capable GPU, its GPU-instance profiles with every placement.
 *
 * <p>Profiles come from {@link ModelSource}: NVML's when it lists them (the driver answers the
 * oldest form of the profile call and the possible placements with MIG disabled too, so an Ampere
 * GPU whose MIG mode is still pending has them), otherwise the built-in catalogue's entry for the
 * GPU's PCI device id, otherwise none. Only GPU-instance profiles are listed, each with the compute
 * instance that spans it, as NVIDIA's driver publishes them: the compute-instance-only variants
 * ({@code 1c.3g.20gb}) are never devices. Read once per GPU and kept by the caller (facts do not
 * change while the driver runs); the NVML calls run in one sequence of the session.
 */
public final class GpuFactsReader {
  private static final Logger log = LoggerFactory.getLogger(GpuFactsReader.class);

  private final Nvml nvml;
  private final ModelSource models;
  private final PciSysfs sysfs;

  /**
   * A reader over an NVML session, the model source the reconcile loop uses, and sysfs at {@code
   * sysfsRoot} ({@code /sys} on a node).
   */
  public GpuFactsReader(Nvml nvml, ModelSource models, Path sysfsRoot) {
    this.nvml = nvml;
    this.models = models;
    this.sysfs = new PciSysfs(sysfsRoot);
  }

  /**
   * The facts of one GPU.
   *
   * @throws NvmlException when an NVML call fails
   * @throws UncheckedIOException when sysfs has the GPU but cannot be read
   */
  public GpuFacts read(ObservedGpu gpu) {
    DriverAnswers answers = nvml.inSequence(() -> ask(gpu));
    String busId = PciSysfs.busId(gpu.pci().busId());
    Optional<String> pcieRoot;
    OptionalInt numaNode;
    try {
      pcieRoot = sysfs.pcieRoot(busId);
      numaNode = sysfs.numaNode(busId);
    } catch (IOException e) {
      throw new UncheckedIOException("reading where GPU " + gpu.index() + " sits in sysfs", e);
    }
    if (pcieRoot.isEmpty()) {
      log.info("gpu={} busId={} sysfs does not show its PCIe root", gpu.index(), busId);
    }
    return new GpuFacts(
        gpu.index(),
        gpu.minor(),
        gpu.uuid(),
        gpu.name(),
        answers.brand().nvidiaName(),
        answers.architecture().nvidiaName(),
        answers.computeCapability().toString(),
        answers.driverVersion(),
        answers.cudaDriverVersion().toString(),
        busId,
        pcieRoot.orElse(""),
        numaNode,
        answers.memoryBytes(),
        gpu.migCapable() ? profiles(gpu) : List.of());
  }

  private DriverAnswers ask(ObservedGpu gpu) {
    DeviceHandle device = nvml.deviceByIndex(gpu.index().value());
    return new DriverAnswers(
        nvml.brand(device),
        nvml.architecture(device),
        nvml.cudaComputeCapability(device),
        nvml.driverVersion(),
        nvml.cudaDriverVersion(),
        nvml.memory(device).totalBytes());
  }

  private List<GpuFacts.MigProfile> profiles(ObservedGpu gpu) {
    Optional<GpuModel> model = models.modelOf(gpu);
    if (model.isEmpty()) {
      log.info(
          "gpu={} pciDeviceId={} neither NVML nor the catalogue lists its MIG profiles; it"
              + " publishes none",
          gpu.index(),
          gpu.pci().deviceIdHex());
      return List.of();
    }
    return model.get().giProfiles().stream().map(GpuFactsReader::profile).toList();
  }

  private static GpuFacts.MigProfile profile(GiProfile p) {
    return new GpuFacts.MigProfile(
        p.id(),
        p.name().toString(),
        p.memoryMib(),
        p.memorySlices(),
        p.smCount(),
        p.copyEngines(),
        p.decoders(),
        p.encoders(),
        p.jpegDecoders(),
        p.opticalFlowAccelerators(),
        p.placements().stream().map(at -> new InstancePlacement(at.start(), at.size())).toList());
  }

  private record DriverAnswers(
      GpuBrand brand,
      GpuArchitecture architecture,
      CudaVersion computeCapability,
      String driverVersion,
      CudaVersion cudaDriverVersion,
      long memoryBytes) {}
}
