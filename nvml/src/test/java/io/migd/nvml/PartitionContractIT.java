package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the driver decides on its own, through the real FFM path on every simulated MIG model:
 * GPU-instance ids (partition numbers fixed by the placement), MIG UUIDs (version-5, the same after
 * destroy and re-create) and MIG device index order.
 */
class PartitionContractIT {
  private static SimNode node;

  /** GPU-instance id by placement size (memory slices), then start / size. */
  private static final Map<String, int[][]> IDS =
      Map.of(
          "direct",
          new int[][] {{7, 8, 9, 10, 11, 12, 13}, {3, 4, 5, 6}, {1, 2}, {0}},
          "swapped",
          new int[][] {{11, 12, 13, 14, 7, 8, 9}, {5, 6, 3, 4}, {2, 1}, {0}},
          "a30",
          new int[][] {{3, 4, 5, 6}, {1, 2}, {0}});

  /** Which numbering each model shows (A100s and the H100 PCIe board: halves swapped). */
  private static final Map<String, String> NUMBERING =
      Map.of(
          "A30", "a30",
          "A100-SXM4-40GB", "swapped",
          "A100-SXM4-80GB", "swapped",
          "H100-NVL", "swapped",
          "H100-SXM5-80GB", "direct",
          "H200", "direct",
          "B200", "direct");

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static Stream<GpuModel> migModels() {
    return GpuModelCatalog.builtIn().models().stream().filter(GpuModel::migCapable);
  }

  static int expectedId(GpuModel model, InstancePlacement at) {
    int[][] table = IDS.get(NUMBERING.get(model.key()));
    int level = Integer.numberOfTrailingZeros(at.size());
    assertThat(at.size()).as("placement size is a power of two").isEqualTo(1 << level);
    return table[level][at.start() / at.size()];
  }

  /** RFC 4122 version 5: SHA-1 over the namespace's 16 bytes and the name, then version/variant. */
  static String expectedMigUuid(String gpuUuid, int gi, int ci) throws NoSuchAlgorithmException {
    UUID namespace = UUID.fromString(gpuUuid.substring("GPU-".length()));
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    sha1.update(
        ByteBuffer.allocate(16)
            .putLong(namespace.getMostSignificantBits())
            .putLong(namespace.getLeastSignificantBits())
            .array());
    sha1.update((gi + "/" + ci).getBytes(StandardCharsets.US_ASCII));
    byte[] h = sha1.digest();
    h[6] = (byte) ((h[6] & 0x0F) | 0x50);
    h[8] = (byte) ((h[8] & 0x3F) | 0x80);
    ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
    return "MIG-" + new UUID(b.getLong(), b.getLong());
  }

  @Test
  void everyMigModelHasAKnownNumbering() {
    assertThat(migModels().map(GpuModel::key)).allMatch(NUMBERING::containsKey);
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void gpuInstanceIdsAndMigUuidsFollowThePlacement(GpuModel model) throws Exception {
    DeviceHandle gpu = node.migEnabledGpu(model.key());
    Nvml nvml = node.nvml;
    String gpuUuid = nvml.uuid(gpu);
    for (GiProfile profile : model.giProfiles()) {
      for (Placement p : profile.placements()) {
        var at = new InstancePlacement(p.start(), p.size());
        int id = expectedId(model, at);
        String uuid = null;
        for (int round = 0; round < 2; round++) {
          var gi = nvml.createGpuInstance(gpu, profile.id(), at);
          assertThat(nvml.gpuInstanceInfo(gi).id()).as("%s at %s", profile.name(), p).isEqualTo(id);
          var ci = SimNode.createWholeComputeInstance(nvml, gi, profile.defaultCiProfile().id());
          DeviceHandle mig = nvml.migDeviceByIndex(gpu, 0).orElseThrow();
          assertThat(nvml.gpuInstanceId(mig)).isEqualTo(id);
          String now = nvml.uuid(mig);
          assertThat(now)
              .as("%s at %s", profile.name(), p)
              .matches("MIG-[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
              .isEqualTo(expectedMigUuid(gpuUuid, id, 0));
          assertThat(nvml.deviceByUuid(now)).isEqualTo(mig);
          if (uuid != null) {
            assertThat(now)
                .as("the same UUID after re-creating %s", profile.name())
                .isEqualTo(uuid);
          }
          uuid = now;
          nvml.destroyComputeInstance(ci);
          nvml.destroyGpuInstance(gi);
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void idsDoNotDependOnTheOrderOfCreation(GpuModel model) {
    DeviceHandle gpu = node.migEnabledGpu(model.key());
    Nvml nvml = node.nvml;
    GiProfile smallest = smallestProfile(model);
    List<Placement> reversed = new ArrayList<>(smallest.placements()).reversed();
    for (Placement p : reversed) {
      nvml.createGpuInstance(gpu, smallest.id(), new InstancePlacement(p.start(), p.size()));
    }
    for (GpuInstanceHandle gi : nvml.gpuInstances(gpu, smallest.id())) {
      var info = nvml.gpuInstanceInfo(gi);
      assertThat(info.id())
          .as("at %s", info.placement())
          .isEqualTo(expectedId(model, info.placement()));
      assertThat(nvml.gpuInstanceById(gpu, info.id())).isEqualTo(gi);
    }
  }

  /** The one-memory-slice profile with the most instances (1g.5gb, 1g.10gb, 1g.6gb, ...). */
  private static GiProfile smallestProfile(GpuModel model) {
    return model.giProfiles().stream()
        .filter(p -> p.placements().getFirst().size() == 1)
        .max(Comparator.comparingInt(GiProfile::instances))
        .orElseThrow();
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void migDeviceIndexesFollowGpuInstanceIdThenComputeInstanceId(GpuModel model) {
    DeviceHandle gpu = node.migEnabledGpu(model.key());
    Nvml nvml = node.nvml;
    GiProfile smallest = smallestProfile(model);
    List<Placement> reversed = new ArrayList<>(smallest.placements()).reversed();
    // a half-GPU instance at the second half, its 1-slice compute instances created from the last
    // start down (compute-instance ids ascend while starts descend); small ones fill the rest
    GiProfile half =
        model.giProfiles().stream()
            .filter(p -> p.placements().size() == 2)
            .filter(p -> p.placements().getFirst().size() * 2 == model.memorySlices())
            .findFirst()
            .orElseThrow();
    var halfAt = half.placements().getLast();
    var bigGi =
        nvml.createGpuInstance(
            gpu, half.id(), new InstancePlacement(halfAt.start(), halfAt.size()));
    var oneC = half.ciProfileBySlices(1).orElseThrow();
    for (int start = oneC.instances() - 1; start >= 0; start--) {
      nvml.createComputeInstance(bigGi, oneC.id(), new InstancePlacement(start, 1));
    }
    for (Placement p : reversed) {
      if (p.start() + p.size() <= halfAt.start()) {
        var gi =
            nvml.createGpuInstance(gpu, smallest.id(), new InstancePlacement(p.start(), p.size()));
        SimNode.createWholeComputeInstance(nvml, gi, smallest.defaultCiProfile().id());
      }
    }
    record Seen(int gi, int ci) {}
    var seen = new ArrayList<Seen>();
    for (int i = 0; i < nvml.maxMigDeviceCount(gpu); i++) {
      var mig = nvml.migDeviceByIndex(gpu, i);
      if (mig.isEmpty()) {
        continue;
      }
      assertThat(nvml.index(mig.get())).isEqualTo(i);
      seen.add(new Seen(nvml.gpuInstanceId(mig.get()), nvml.computeInstanceId(mig.get())));
    }
    assertThat(seen).hasSize(model.memorySlices() == 8 ? 7 : 4);
    assertThat(seen)
        .isSortedAccordingTo(Comparator.comparingInt(Seen::gi).thenComparingInt(Seen::ci));
  }
}
