package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPU and compute instances on every simulated MIG model, through the real FFM path: every profile
 * at every placement, every layout the placement tables allow, and the driver's refusals.
 */
class GpuInstanceContractIT {
  private static final long MIB = 1024 * 1024;
  private static SimNode node;

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

  private static DeviceHandle migEnabledGpu(GpuModel model) {
    return node.migEnabledGpu(model.key());
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void reportsTheCatalogueProfilesAndPlacements(GpuModel model) {
    DeviceHandle gpu = migEnabledGpu(model);
    Nvml nvml = node.nvml;
    assertThat(nvml.name(gpu)).isEqualTo(model.nvmlName());
    assertThat(nvml.pciInfo(gpu).deviceId()).isEqualTo(model.pciDeviceId());
    assertThat(nvml.memory(gpu).totalBytes()).isEqualTo(model.memoryMib() * MIB);

    List<GpuInstanceProfile> profiles = nvml.gpuInstanceProfiles(gpu);
    assertThat(profiles)
        .extracting(GpuInstanceProfile::name)
        .containsExactlyInAnyOrderElementsOf(
            model.giProfiles().stream().map(p -> "MIG " + p.name()).toList());
    for (GiProfile expected : model.giProfiles()) {
      GpuInstanceProfile actual = nvml.gpuInstanceProfileById(gpu, expected.id());
      assertThat(actual.sliceCount()).isEqualTo(expected.slices());
      assertThat(actual.instanceCount()).isEqualTo(expected.instances());
      assertThat(actual.memorySizeMiB()).isEqualTo(expected.memoryMib());
      assertThat(nvml.gpuInstancePossiblePlacements(gpu, expected.id()))
          .extracting(p -> new Placement(p.start(), p.size()))
          .containsExactlyElementsOf(expected.placements());
    }
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void createsAndDestroysEveryProfileAtEveryPlacement(GpuModel model) {
    DeviceHandle gpu = migEnabledGpu(model);
    Nvml nvml = node.nvml;
    for (GiProfile profile : model.giProfiles()) {
      for (Placement at : profile.placements()) {
        var gi =
            nvml.createGpuInstance(gpu, profile.id(), new InstancePlacement(at.start(), at.size()));
        var info = nvml.gpuInstanceInfo(gi);
        assertThat(info.profileId()).as("%s at %s", profile.name(), at).isEqualTo(profile.id());
        assertThat(info.placement()).isEqualTo(new InstancePlacement(at.start(), at.size()));

        var ci = SimNode.createWholeComputeInstance(nvml, gi, profile.defaultCiProfile().id());
        var ciInfo = nvml.computeInstanceInfo(ci);
        assertThat(ciInfo.placement().size()).isEqualTo(profile.slices());
        DeviceHandle mig = nvml.migDeviceByIndex(gpu, 0).orElseThrow();
        assertThat(nvml.uuid(mig)).startsWith("MIG-");
        assertThat(nvml.gpuInstanceId(mig)).isEqualTo(info.id());
        assertThat(nvml.memory(mig).totalBytes()).isEqualTo(profile.memoryMib() * MIB);

        nvml.destroyComputeInstance(ci);
        nvml.destroyGpuInstance(gi);
        assertThat(nvml.gpuInstances(gpu, profile.id())).isEmpty();
      }
    }
  }

  /** One GPU instance of a layout: a profile at a placement. */
  record PlacedProfile(GiProfile profile, Placement placement) {
    @Override
    public String toString() {
      return profile.name() + "@" + placement;
    }
  }

  /**
   * Every set of profile placements that do not overlap, keep each profile within its instance
   * count and hold at most one GPU instance with an optical-flow engine (the GPU has one).
   */
  static List<List<PlacedProfile>> placeableLayouts(GpuModel model) {
    var options = new ArrayList<PlacedProfile>();
    for (GiProfile profile : model.giProfiles()) {
      for (Placement at : profile.placements()) {
        options.add(new PlacedProfile(profile, at));
      }
    }
    options.sort(
        Comparator.comparingInt((PlacedProfile p) -> p.placement().start())
            .thenComparingInt(p -> p.profile().id()));
    var layouts = new ArrayList<List<PlacedProfile>>();
    extend(options, 0, new ArrayList<>(), layouts);
    return layouts;
  }

  private static void extend(
      List<PlacedProfile> options,
      int from,
      List<PlacedProfile> chosen,
      List<List<PlacedProfile>> layouts) {
    if (!chosen.isEmpty()) {
      layouts.add(List.copyOf(chosen));
    }
    for (int i = from; i < options.size(); i++) {
      PlacedProfile option = options.get(i);
      if (fits(chosen, option)) {
        chosen.add(option);
        extend(options, i + 1, chosen, layouts);
        chosen.removeLast();
      }
    }
  }

  private static boolean fits(List<PlacedProfile> chosen, PlacedProfile option) {
    long sameProfile = chosen.stream().filter(c -> c.profile().equals(option.profile())).count();
    boolean ofaTaken =
        option.profile().opticalFlowAccelerators() > 0
            && chosen.stream().anyMatch(c -> c.profile().opticalFlowAccelerators() > 0);
    return sameProfile < option.profile().instances()
        && !ofaTaken
        && chosen.stream().noneMatch(c -> c.placement().overlaps(option.placement()));
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void buildsEveryLayoutThePlacementTablesAllow(GpuModel model) {
    DeviceHandle gpu = migEnabledGpu(model);
    Nvml nvml = node.nvml;
    List<List<PlacedProfile>> layouts = placeableLayouts(model);
    assertThat(layouts).hasSizeGreaterThan(model.giProfiles().size());
    for (List<PlacedProfile> layout : layouts) {
      var created = new ArrayList<GpuInstanceHandle>();
      for (PlacedProfile p : layout) {
        created.add(
            nvml.createGpuInstance(
                gpu,
                p.profile().id(),
                new InstancePlacement(p.placement().start(), p.placement().size())));
      }
      Map<Integer, Integer> byProfile = new HashMap<>();
      layout.forEach(p -> byProfile.merge(p.profile().id(), 1, Integer::sum));
      byProfile.forEach(
          (id, count) ->
              assertThat(nvml.gpuInstances(gpu, id)).as("layout %s", layout).hasSize(count));
      created.forEach(nvml::destroyGpuInstance);
    }
  }

  @Test
  void refusesOverlapsOverCapacityAndPlacementsAProfileLacks() {
    GpuModel a100 = GpuModelCatalog.builtIn().byKey("A100-SXM4-40GB").orElseThrow();
    DeviceHandle gpu = migEnabledGpu(a100);
    Nvml nvml = node.nvml;
    int threeG = a100.giProfile(io.migd.profiles.ProfileName.parse("3g.20gb")).orElseThrow().id();
    int oneG = a100.giProfile(io.migd.profiles.ProfileName.parse("1g.5gb")).orElseThrow().id();
    int oneGme = a100.giProfile(io.migd.profiles.ProfileName.parse("1g.5gb+me")).orElseThrow().id();

    nvml.createGpuInstance(gpu, threeG, new InstancePlacement(0, 4));
    assertThatThrownBy(() -> nvml.createGpuInstance(gpu, oneG, new InstancePlacement(2, 1)))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> {
              assertThat(e.code()).isEqualTo(NvmlReturn.INSUFFICIENT_RESOURCES);
              assertThat(e.function()).isEqualTo("nvmlDeviceCreateGpuInstanceWithPlacement");
            });
    assertThatThrownBy(() -> nvml.createGpuInstance(gpu, threeG, new InstancePlacement(2, 4)))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT));
    nvml.createGpuInstance(gpu, oneGme, new InstancePlacement(4, 1));
    assertThatThrownBy(() -> nvml.createGpuInstance(gpu, oneGme, new InstancePlacement(5, 1)))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> assertThat(e.code()).isEqualTo(NvmlReturn.INSUFFICIENT_RESOURCES));
    nvml.createGpuInstance(gpu, oneG, new InstancePlacement(5, 1));
    nvml.createGpuInstance(gpu, oneG, new InstancePlacement(6, 1));
    assertThatThrownBy(() -> nvml.createGpuInstance(gpu, oneG, new InstancePlacement(6, 1)))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> assertThat(e.code()).isEqualTo(NvmlReturn.INSUFFICIENT_RESOURCES));
  }

  @Test
  void staleHandlesAnswerInvalidArgument() {
    GpuModel h100 = GpuModelCatalog.builtIn().byKey("H100-SXM5-80GB").orElseThrow();
    DeviceHandle gpu = migEnabledGpu(h100);
    Nvml nvml = node.nvml;
    GiProfile threeG = h100.giProfile(io.migd.profiles.ProfileName.parse("3g.40gb")).orElseThrow();
    var gi = nvml.createGpuInstance(gpu, threeG.id(), new InstancePlacement(4, 4));
    var ci = SimNode.createWholeComputeInstance(nvml, gi, threeG.defaultCiProfile().id());
    DeviceHandle mig = nvml.migDeviceByIndex(gpu, 0).orElseThrow();
    nvml.destroyComputeInstance(ci);
    nvml.destroyGpuInstance(gi);
    // the same placement again must not revive the old handles
    nvml.createGpuInstance(gpu, threeG.id(), new InstancePlacement(4, 4));

    assertThatThrownBy(() -> nvml.gpuInstanceInfo(gi))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT));
    assertThatThrownBy(() -> nvml.computeInstanceInfo(ci))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT));
    assertThatThrownBy(() -> nvml.uuid(mig))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT));
  }

  @Test
  void refusesToDestroyAGpuInstanceThatHoldsComputeInstances() {
    GpuModel a30 = GpuModelCatalog.builtIn().byKey("A30").orElseThrow();
    DeviceHandle gpu = migEnabledGpu(a30);
    Nvml nvml = node.nvml;
    GiProfile fourG = a30.giProfile(io.migd.profiles.ProfileName.parse("4g.24gb")).orElseThrow();
    var gi = nvml.createGpuInstance(gpu, fourG.id(), new InstancePlacement(0, 4));
    int oneSlice = fourG.ciProfileBySlices(1).orElseThrow().id();
    var first = nvml.createComputeInstance(gi, oneSlice, new InstancePlacement(0, 1));
    nvml.createComputeInstance(gi, oneSlice, new InstancePlacement(2, 1));
    assertThat(nvml.computeInstanceInfo(first).id()).isZero();
    assertThat(nvml.computeInstances(gi, oneSlice)).hasSize(2);
    assertThat(nvml.computeInstancePossiblePlacements(gi, oneSlice)).hasSize(4);

    assertThatThrownBy(() -> nvml.destroyGpuInstance(gi))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.IN_USE));
    assertThat(nvml.gpuInstances(gpu, fourG.id())).hasSize(1);
  }

  @Test
  void migCallsOnAGpuWithoutMigAreNotSupported() {
    node.reset("T4");
    DeviceHandle gpu = node.gpu(0);
    assertThatThrownBy(() -> node.nvml.migMode(gpu))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.NOT_SUPPORTED));
    assertThatThrownBy(() -> node.nvml.setMigMode(gpu, true))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.NOT_SUPPORTED));
    assertThat(node.nvml.gpuInstanceProfiles(gpu)).isEmpty();
    assertThat(node.nvml.utilization(gpu).gpuPercent()).isBetween(0, 100);
  }
}
