package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract against the node's real driver, only when asked with {@code -Dmigd.gpu-test=<index>}
 * (and {@code -Dmigd.nvml.library=...} for a library off the linker's path). Read-only by default;
 * with {@code -Dmigd.gpu-test.write=true} it also creates and destroys every profile at every
 * placement, on a GPU that has MIG enabled and no instances.
 */
class RealDriverContractIT {
  private static final String PROPERTY = "migd.gpu-test";
  private static Nvml nvml;
  private static DeviceHandle gpu;

  @BeforeAll
  static void open() {
    String index = System.getProperty(PROPERTY, "");
    if (index.isBlank()) {
      System.out.println(
          "[migd] real-driver contract suite skipped: no -D"
              + PROPERTY
              + "=<gpu index> given (the same calls ran against the simulated NVML)");
    }
    assumeTrue(!index.isBlank(), "no -D" + PROPERTY + "=<gpu index>");
    String library = System.getProperty("migd.nvml.library", NvmlLibrary.DEFAULT_LOCATION);
    nvml = FfmNvml.open(NvmlLibrary.load(library), NvmlCallObserver.NONE);
    gpu = nvml.deviceByIndex(Integer.parseInt(index.strip()));
  }

  @AfterAll
  static void close() {
    if (nvml != null) {
      nvml.close();
    }
  }

  @Test
  void identityIsConsistent() {
    String uuid = nvml.uuid(gpu);
    assertThat(uuid).startsWith("GPU-");
    assertThat(nvml.deviceByUuid(uuid)).isEqualTo(gpu);
    assertThat(nvml.pciInfo(gpu).deviceId() & 0xFFFF).isEqualTo(0x10DE);
    assertThat(nvml.name(gpu)).isNotBlank();
  }

  @Test
  void memoryAndProcessesAnswer() {
    var memory = nvml.memory(gpu);
    assertThat(memory.totalBytes()).isPositive();
    assertThat(memory.usedBytes()).isLessThanOrEqualTo(memory.totalBytes());
    assertThat(nvml.computeProcesses(gpu)).allSatisfy(p -> assertThat(p.pid()).isPositive());
  }

  @Test
  void createsAndDestroysEveryProfileAtEveryPlacementWhenAllowedToWrite() {
    assumeTrue(Boolean.getBoolean("migd.gpu-test.write"), "read-only run");
    assumeTrue(nvml.migMode(gpu).current(), "MIG is not enabled on this GPU");
    var profiles = nvml.gpuInstanceProfiles(gpu);
    for (GpuInstanceProfile profile : profiles) {
      assumeTrue(nvml.gpuInstances(gpu, profile.id()).isEmpty(), "the GPU holds instances");
    }
    for (GpuInstanceProfile profile : profiles) {
      for (InstancePlacement at : nvml.gpuInstancePossiblePlacements(gpu, profile.id())) {
        var gi = nvml.createGpuInstance(gpu, profile.id(), at);
        try {
          assertThat(nvml.gpuInstanceInfo(gi).placement()).isEqualTo(at);
          var ciProfile = nvml.computeInstanceProfiles(gi).getLast();
          var ci =
              nvml.createComputeInstance(
                  gi,
                  ciProfile.id(),
                  nvml.computeInstancePossiblePlacements(gi, ciProfile.id()).getFirst());
          assertThat(nvml.computeInstanceInfo(ci).placement().size())
              .isEqualTo(ciProfile.sliceCount());
          nvml.destroyComputeInstance(ci);
        } finally {
          nvml.destroyGpuInstance(gi);
        }
      }
    }
  }

  @Test
  void migProfilesAndPlacementsAreConsistent() {
    MigMode mode;
    try {
      mode = nvml.migMode(gpu);
    } catch (NvmlException e) {
      assumeTrue(e.code() != NvmlReturn.NOT_SUPPORTED, "GPU without MIG");
      throw e;
    }
    for (GpuInstanceProfile profile : nvml.gpuInstanceProfiles(gpu)) {
      var placements = nvml.gpuInstancePossiblePlacements(gpu, profile.id());
      assertThat(placements).isNotEmpty();
      assertThat(placements).allSatisfy(p -> assertThat(p.size()).isPositive());
      if (mode.current()) {
        assertThat(nvml.gpuInstances(gpu, profile.id()).size())
            .isLessThanOrEqualTo(profile.instanceCount());
      }
    }
  }
}
