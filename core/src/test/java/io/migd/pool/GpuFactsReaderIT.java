package io.migd.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facts of an A100, an H100 and a T4 on a node whose device minors are not its NVML indexes,
 * read through the simulated NVML and a sysfs tree written here; profiles and placements as
 * mig-profiles.json records them (memory sizes vary by driver branch and are not compared).
 */
class GpuFactsReaderIT {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final long MIB = 1024L * 1024;

  @TempDir Path sysfs;
  private SimulatedNvml sim;
  private Nvml nvml;
  private GpuFactsReader reader;

  @BeforeEach
  void start() throws IOException {
    sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    sim.init("A100-SXM4-40GB,H100-SXM5-80GB,T4");
    sim.require("minor", "--gpu", "0", "4");
    sim.require("minor", "--gpu", "1", "0");
    sim.require("minor", "--gpu", "2", "1");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    reader = new GpuFactsReader(nvml, new ModelSource(nvml, CATALOG), sysfs);
    pciDevice("pci0000:00/0000:00:01.0/0000:07:00.0", "0");
    pciDevice("pci0000:10/0000:10:02.0/0000:11:00.0/0000:17:00.0", "1");
    pciDevice("pci0000:20/0000:20:03.0/0000:27:00.0", "-1");
  }

  @AfterEach
  void stop() {
    nvml.close();
    sim.require("faults", "");
  }

  private void pciDevice(String path, String numaNode) throws IOException {
    Path device = Files.createDirectories(sysfs.resolve("devices").resolve(path));
    Files.writeString(device.resolve("numa_node"), numaNode + "\n");
    Path link = sysfs.resolve("bus/pci/devices").resolve(device.getFileName());
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, link.getParent().relativize(device));
  }

  private GpuFacts facts(int index) {
    ObservedGpu gpu = new NodeObserver(nvml, CATALOG).observe().gpus().get(index);
    return reader.read(gpu);
  }

  @Test
  void readsTheA100AsNvidiasDriverPublishesIt() {
    var a100 = facts(0);

    assertThat(a100.minor()).isEqualTo(4);
    assertThat(a100.uuid()).startsWith("GPU-").isEqualTo(nvml.uuid(nvml.deviceByIndex(0)));
    assertThat(a100.productName()).isEqualTo("NVIDIA A100-SXM4-40GB");
    assertThat(a100.brand()).isEqualTo("Nvidia");
    assertThat(a100.architecture()).isEqualTo("Ampere");
    assertThat(a100.cudaComputeCapability()).isEqualTo("8.0");
    assertThat(a100.driverVersion()).isEqualTo("580.95.05");
    assertThat(a100.cudaDriverVersion()).isEqualTo("13.0");
    assertThat(a100.pciBusId()).isEqualTo("0000:07:00.0");
    assertThat(a100.pcieRoot()).isEqualTo("pci0000:00");
    assertThat(a100.numaNode()).isEqualTo(OptionalInt.of(0));
    assertThat(a100.memoryBytes()).isEqualTo(40960 * MIB);
    // Read with MIG disabled, as an Ampere GPU is before its mode change.
    assertThat(a100.profiles())
        .extracting(p -> p.name(), p -> p.giProfileId(), p -> p.sliceCount(), p -> p.placements())
        .containsExactlyInAnyOrder(
            tuple("1g.5gb", 19, 1, every(1, 7)),
            tuple("1g.5gb+me", 20, 1, every(1, 7)),
            tuple("1g.10gb", 15, 2, every(2, 4)),
            tuple("2g.10gb", 14, 2, every(2, 3)),
            tuple("3g.20gb", 9, 4, every(4, 2)),
            tuple("4g.20gb", 5, 4, every(4, 1)),
            tuple("7g.40gb", 0, 8, every(8, 1)));
    assertThat(a100.profiles())
        .filteredOn(p -> p.name().equals("7g.40gb"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.multiprocessors()).isEqualTo(98);
              assertThat(p.copyEngines()).isEqualTo(7);
              assertThat(p.decoders()).isEqualTo(5);
              assertThat(p.encoders()).isZero();
              assertThat(p.jpegEngines()).isEqualTo(1);
              assertThat(p.ofaEngines()).isEqualTo(1);
            });
  }

  @Test
  void readsTheH100WithItsEnginesAndPlacements() {
    var h100 = facts(1);

    assertThat(h100.minor()).isZero();
    assertThat(h100.architecture()).isEqualTo("Hopper");
    assertThat(h100.cudaComputeCapability()).isEqualTo("9.0");
    assertThat(h100.pciBusId()).isEqualTo("0000:17:00.0");
    assertThat(h100.pcieRoot()).isEqualTo("pci0000:10");
    assertThat(h100.numaNode()).isEqualTo(OptionalInt.of(1));
    assertThat(h100.profiles())
        .extracting(
            p -> p.name(),
            p -> p.multiprocessors(),
            p -> p.copyEngines(),
            p -> p.decoders(),
            p -> p.jpegEngines(),
            p -> p.ofaEngines(),
            p -> p.placements())
        .containsExactlyInAnyOrder(
            tuple("1g.10gb", 16, 1, 1, 1, 0, every(1, 7)),
            tuple("1g.10gb+me", 16, 1, 1, 1, 1, every(1, 7)),
            tuple("1g.20gb", 26, 1, 1, 1, 0, every(2, 4)),
            tuple("2g.20gb", 32, 2, 2, 2, 0, every(2, 3)),
            tuple("3g.40gb", 60, 3, 3, 3, 0, every(4, 2)),
            tuple("4g.40gb", 64, 4, 4, 4, 0, every(4, 1)),
            tuple("7g.80gb", 132, 8, 7, 7, 1, every(8, 1)));
  }

  @Test
  void readsTheT4AsAWholeGpuWithoutProfiles() {
    var t4 = facts(2);

    assertThat(t4.minor()).isEqualTo(1);
    assertThat(t4.productName()).isEqualTo("Tesla T4");
    assertThat(t4.brand()).isEqualTo("Nvidia");
    assertThat(t4.architecture()).isEqualTo("Turing");
    assertThat(t4.cudaComputeCapability()).isEqualTo("7.5");
    assertThat(t4.pcieRoot()).isEqualTo("pci0000:20");
    assertThat(t4.numaNode()).isEmpty();
    assertThat(t4.profiles()).isEmpty();
  }

  @Test
  void takesTheCatalogueProfilesWhenNvmlCannotListThem() {
    sim.require(
        "faults",
        "nvmlDeviceGetGpuInstanceProfileInfo=NOT_SUPPORTED;"
            + "nvmlDeviceGetGpuInstanceProfileInfoV=NOT_SUPPORTED");

    var a100 = facts(0);

    var catalogue = CATALOG.byKey("A100-SXM4-40GB").orElseThrow().giProfiles();
    assertThat(a100.profiles())
        .extracting(p -> p.name(), p -> p.placements().size())
        .containsExactlyElementsOf(
            catalogue.stream()
                .map(p -> tuple(p.name().toString(), p.placements().size()))
                .toList());
  }

  @Test
  void leavesWhereTheGpuSitsEmptyWhenSysfsDoesNotShowIt() throws IOException {
    Files.delete(sysfs.resolve("bus/pci/devices/0000:07:00.0"));

    var a100 = facts(0);

    assertThat(a100.pcieRoot()).isEmpty();
    assertThat(a100.numaNode()).isEmpty();
    assertThat(a100.pciBusId()).isEqualTo("0000:07:00.0");
  }

  private static List<InstancePlacement> every(int size, int count) {
    return IntStream.range(0, count).mapToObj(i -> new InstancePlacement(i * size, size)).toList();
  }
}
