package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Numbers real drivers report (public nvidia-smi captures, 580 driver branch where branches
 * differ), read through the real FFM path from the simulated library.
 */
class DriverFactsContractIT {
  private static final long MIB = 1024 * 1024;
  private static SimNode node;

  private static final Map<String, Long> TOTAL_MIB =
      Map.of(
          "A30", 24576L,
          "A100-SXM4-40GB", 40960L,
          "A100-SXM4-80GB", 81920L,
          "H100-SXM5-80GB", 81559L,
          "H100-NVL", 95830L,
          "H200", 143771L,
          "B200", 183359L);

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void reportsTheDriverAndEachGpuAsNvidiasToolsNameThem() {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB,B200,L4,T4");

    assertThat(node.nvml.driverVersion()).isEqualTo("580.95.05");
    assertThat(node.nvml.cudaDriverVersion()).hasToString("13.0");
    record Named(String architecture, String computeCapability, String brand) {}
    var named =
        IntStream.range(0, 5)
            .mapToObj(node::gpu)
            .map(
                gpu ->
                    new Named(
                        node.nvml.architecture(gpu).nvidiaName(),
                        node.nvml.cudaComputeCapability(gpu).toString(),
                        node.nvml.brand(gpu).nvidiaName()))
            .toList();
    assertThat(named)
        .containsExactly(
            new Named("Ampere", "8.0", "Nvidia"),
            new Named("Hopper", "9.0", "Nvidia"),
            new Named("Blackwell", "10.0", "Nvidia"),
            new Named("Ada Lovelace", "8.9", "Nvidia"),
            new Named("Turing", "7.5", "Nvidia"));
  }

  @Test
  void minorNumbersAreTheIndexesUnlessTheNodeSetsThem() {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB,T4");
    assertThat(IntStream.range(0, 3).map(i -> node.nvml.minorNumber(node.gpu(i))))
        .containsExactly(0, 1, 2);

    node.sim.require("minor", "--gpu", "0", "7");
    node.sim.require("minor", "--gpu", "2", "0");

    assertThat(node.sim.control("minor", "--gpu", "1", "0").exitStatus()).isEqualTo(1);
    assertThat(IntStream.range(0, 3).map(i -> node.nvml.minorNumber(node.gpu(i))))
        .containsExactly(7, 1, 0);
  }

  @Test
  void totalMemoryIsWhatRealDriversReport() {
    assertThat(
            GpuModelCatalog.builtIn().models().stream()
                .filter(GpuModel::migCapable)
                .map(GpuModel::key))
        .containsExactlyInAnyOrderElementsOf(TOTAL_MIB.keySet());
    String all = String.join(",", TOTAL_MIB.keySet());
    node.reset(all);
    for (int i = 0; i < TOTAL_MIB.size(); i++) {
      DeviceHandle gpu = node.gpu(i);
      String key = all.split(",")[i];
      assertThat(node.nvml.memory(gpu).totalBytes()).as(key).isEqualTo(TOTAL_MIB.get(key) * MIB);
    }
  }

  private static long profileMemory(String model, String profile) {
    DeviceHandle gpu = node.migEnabledGpu(model);
    return node.nvml.gpuInstanceProfiles(gpu).stream()
        .filter(p -> p.name().equals("MIG " + profile))
        .findFirst()
        .orElseThrow()
        .memorySizeMiB();
  }

  @Test
  void profileMemoryIsThatOfThe580Branch() {
    assertThat(profileMemory("H200", "1g.35gb")).isEqualTo(33280L);
    assertThat(profileMemory("H200", "2g.35gb")).isEqualTo(33280L);
    assertThat(profileMemory("H200", "3g.71gb")).isEqualTo(71424L);
    assertThat(profileMemory("H200", "4g.71gb")).isEqualTo(71424L);
    assertThat(profileMemory("H200", "7g.141gb")).isEqualTo(143360L);
    assertThat(profileMemory("A100-SXM4-40GB", "7g.40gb")).isEqualTo(40320L);
    assertThat(profileMemory("A100-SXM4-80GB", "1g.20gb")).isEqualTo(19968L);
  }

  @Test
  void h100ComputeInstanceProfilesAreThoseCaptured() {
    DeviceHandle gpu = node.migEnabledGpu("H100-SXM5-80GB");
    Nvml nvml = node.nvml;
    var oneG20 = nvml.createGpuInstance(gpu, 15, new InstancePlacement(0, 2));
    assertThat(nvml.computeInstanceProfiles(oneG20))
        .extracting(ComputeInstanceProfile::id)
        .containsExactly(7);
    var threeG = nvml.createGpuInstance(gpu, 9, new InstancePlacement(4, 4));
    var ciProfiles = nvml.computeInstanceProfiles(threeG);
    assertThat(ciProfiles)
        .filteredOn(p -> p.sliceCount() == 1)
        .extracting(ComputeInstanceProfile::multiprocessorCount)
        .containsExactly(16);
    assertThat(ciProfiles)
        .filteredOn(p -> p.sliceCount() == 3)
        .extracting(ComputeInstanceProfile::multiprocessorCount)
        .containsExactly(60);
  }
}
