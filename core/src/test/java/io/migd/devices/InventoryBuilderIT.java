package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the kubelet is shown of layouts the simulated NVML really holds, per MIG strategy. */
class InventoryBuilderIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final GpuIndex GPU2 = new GpuIndex(2);
  private static final String GPU = ResourceNames.GPU;
  private static SimNode node;
  private static final List<Inventory> built = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @AfterEach
  void everyDeviceIdFitsTheKubeletsLimit() {
    // The device plugin API rejects device IDs longer than 63 characters.
    for (Inventory inventory : built) {
      inventory
          .resources()
          .values()
          .forEach(ds -> ds.forEach(d -> assertThat(d.id().length()).isLessThanOrEqualTo(63)));
    }
    built.clear();
  }

  private static Inventory build(
      ObservedNode observed, Map<GpuIndex, Integer> replicas, MigStrategy strategy) {
    Inventory inventory = InventoryBuilder.build(observed, replicas, strategy);
    built.add(inventory);
    return inventory;
  }

  private static GpuInstanceSpec whole(String profile) {
    return GpuInstanceSpec.whole(ProfileName.parse(profile));
  }

  private static GpuInstanceSpec split(String profile, Integer... computeSlices) {
    return new GpuInstanceSpec(ProfileName.parse(profile), List.of(computeSlices));
  }

  private static List<GpuInstanceSpec> times(int n, String profile) {
    return Collections.nCopies(n, whole(profile));
  }

  /** Every compute instance NVML reports, as the device migd must advertise for it. */
  private static List<Device> slicesOf(ObservedGpu gpu) {
    var devices = new ArrayList<Device>();
    for (LiveGpuInstance gi : gpu.gpuInstances()) {
      for (LiveComputeInstance ci : gi.computeInstances()) {
        devices.add(new Device(ci.uuid(), ci.uuid(), gpu.index(), gi.id(), ci.id(), true));
      }
    }
    return devices;
  }

  private static Map<String, List<String>> idsByResource(Inventory inventory) {
    var ids = new TreeMap<String, List<String>>();
    inventory.resources().forEach((r, ds) -> ids.put(r, ds.stream().map(Device::id).toList()));
    return ids;
  }

  private static Device whole(ObservedGpu gpu) {
    return new Device(
        gpu.uuid(), gpu.uuid(), gpu.index(), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES, true);
  }

  @Test
  void mixedAdvertisesEachComputeInstanceUnderItsOwnProfileOnAnA100() {
    node.reset("A100-SXM4-40GB");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(
                GPU0, List.of(split("3g.20gb", 1, 1, 1), whole("2g.10gb"), whole("1g.5gb+me"))));

    Inventory inventory = build(observed, Map.of(), MigStrategy.MIXED);

    assertThat(inventory.resources().keySet())
        .containsExactly(
            "nvidia.com/mig-1c.3g.20gb", "nvidia.com/mig-1g.5gb.me", "nvidia.com/mig-2g.10gb");
    assertThat(inventory.devices("nvidia.com/mig-1c.3g.20gb")).hasSize(3);
    assertThat(inventory.resources().values().stream().flatMap(List::stream).toList())
        .containsExactlyInAnyOrderElementsOf(slicesOf(observed.gpus().getFirst()));
    assertThat(inventory.notes()).isEmpty();
  }

  @Test
  void mixedOnAnH100NamesMediaExtensionsAndComputeInstanceProfiles() {
    node.reset("H100-SXM5-80GB");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(
                GPU0, List.of(whole("1g.10gb+me"), split("3g.40gb", 1, 2), whole("2g.20gb"))));

    Inventory inventory = build(observed, Map.of(), MigStrategy.MIXED);

    assertThat(idsByResource(inventory).keySet())
        .containsExactly(
            "nvidia.com/mig-1c.3g.40gb",
            "nvidia.com/mig-1g.10gb.me",
            "nvidia.com/mig-2c.3g.40gb",
            "nvidia.com/mig-2g.20gb");
    assertThat(inventory.resources().values().stream().flatMap(List::stream).toList())
        .containsExactlyInAnyOrderElementsOf(slicesOf(observed.gpus().getFirst()))
        .allSatisfy(d -> assertThat(d.id()).startsWith("MIG-"));
  }

  @Test
  void aGpuInstanceWithoutComputeInstancesIsNotAdvertised() {
    node.reset("A100-SXM4-40GB");
    ObservedNode shaped =
        node.shape(GpuTarget.mig(GPU0, List.of(whole("3g.20gb"), whole("4g.20gb"))));
    LiveGpuInstance emptied =
        shaped.gpus().getFirst().gpuInstances().stream()
            .filter(gi -> gi.profile().toString().equals("3g.20gb"))
            .findFirst()
            .orElseThrow();
    var device = node.nvml.deviceByIndex(0);
    var gi = node.nvml.gpuInstanceById(device, emptied.id());
    node.nvml.destroyComputeInstance(
        node.nvml.computeInstanceById(gi, emptied.computeInstances().getFirst().id()));

    Inventory inventory = build(node.observe(), Map.of(), MigStrategy.MIXED);

    assertThat(inventory.resources().keySet()).containsExactly("nvidia.com/mig-4g.20gb");
  }

  @Test
  void singleAdvertisesSlicesAsGpusWhenTheNodeHasOneProfile() {
    node.reset("A100-SXM4-40GB,A100-SXM4-40GB");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(GPU0, times(3, "2g.10gb")), GpuTarget.mig(GPU1, times(3, "2g.10gb")));

    Inventory inventory = build(observed, Map.of(), MigStrategy.SINGLE);

    assertThat(inventory.resources().keySet()).containsExactly(GPU);
    var expected = new ArrayList<Device>(slicesOf(observed.gpus().get(0)));
    expected.addAll(slicesOf(observed.gpus().get(1)));
    assertThat(inventory.devices(GPU)).hasSize(6).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(inventory.notes()).isEmpty();
  }

  @Test
  void singleWithSeveralProfilesAdvertisesNoSliceAndSaysWhy() {
    node.reset("A100-SXM4-40GB,A100-SXM4-40GB");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(GPU0, times(3, "2g.10gb")), GpuTarget.mig(GPU1, times(7, "1g.5gb")));

    Inventory inventory = build(observed, Map.of(), MigStrategy.SINGLE);

    assertThat(inventory.resources()).isEmpty();
    assertThat(inventory.notes())
        .containsExactly(
            "migd.mig-strategy=single needs one slice profile on the node; found 1g.5gb, 2g.10gb:"
                + " no MIG slice is advertised (mixed would advertise each profile)");
  }

  @Test
  void singleCountsAComputeInstanceProfileAsAProfileOfItsOwn() {
    node.reset("A100-SXM4-40GB");
    ObservedNode observed =
        node.shape(GpuTarget.mig(GPU0, List.of(split("3g.20gb", 1, 2), whole("3g.20gb"))));

    Inventory inventory = build(observed, Map.of(), MigStrategy.SINGLE);

    assertThat(inventory.resources()).isEmpty();
    assertThat(inventory.notes().getFirst()).contains("found 1c.3g.20gb, 2c.3g.20gb, 3g.20gb:");
  }

  @Test
  void noneAdvertisesAMigEnabledGpuWhole() {
    node.reset("A100-SXM4-40GB");
    ObservedNode observed = node.shape(GpuTarget.mig(GPU0, times(7, "1g.5gb")));

    Inventory inventory = build(observed, Map.of(GPU0, 3), MigStrategy.NONE);

    assertThat(inventory.resources().keySet()).containsExactly(GPU);
    assertThat(inventory.devices(GPU)).containsExactly(whole(observed.gpus().getFirst()));
  }

  @Test
  void aGpuWithoutMigIsTimeSlicedIntoItsReplicas() {
    node.reset("T4,T4");
    ObservedNode observed = node.observe();
    String t4 = observed.gpus().get(0).uuid();

    Inventory inventory = build(observed, Map.of(GPU0, 4), MigStrategy.MIXED);

    assertThat(inventory.resources().keySet()).containsExactly(GPU);
    assertThat(idsByResource(inventory).get(GPU))
        .containsExactlyInAnyOrder(
            t4 + "::0", t4 + "::1", t4 + "::2", t4 + "::3", observed.gpus().get(1).uuid());
    assertThat(inventory.devices(GPU))
        .filteredOn(Device::isReplica)
        .hasSize(4)
        .allSatisfy(
            d -> {
              assertThat(d.parentUuid()).isEqualTo(t4);
              assertThat(d.gpu()).isEqualTo(GPU0);
              assertThat(d.gpuInstanceId()).isEqualTo(Usage.WHOLE_GPU);
              assertThat(d.computeInstanceId()).isEqualTo(Usage.ALL_COMPUTE_INSTANCES);
              assertThat(d.healthy()).isTrue();
            });
  }

  @Test
  void aNodeMixingA100H100AndT4UnderEachStrategy() {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB,T4");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(GPU0, times(7, "1g.5gb")),
            GpuTarget.mig(GPU1, List.of(whole("3g.40gb"), whole("1g.10gb+me"))),
            GpuTarget.whole(GPU2, 2));
    String t4 = observed.gpus().get(2).uuid();
    var replicas = Map.of(GPU2, 2);

    Inventory mixed = build(observed, replicas, MigStrategy.MIXED);
    assertThat(mixed.resources().keySet())
        .containsExactly(
            GPU, "nvidia.com/mig-1g.10gb.me", "nvidia.com/mig-1g.5gb", "nvidia.com/mig-3g.40gb");
    assertThat(mixed.devices("nvidia.com/mig-1g.5gb"))
        .containsExactlyInAnyOrderElementsOf(slicesOf(observed.gpus().get(0)));
    assertThat(idsByResource(mixed).get(GPU)).containsExactly(t4 + "::0", t4 + "::1");

    Inventory single = build(observed, replicas, MigStrategy.SINGLE);
    assertThat(idsByResource(single))
        .containsExactly(Map.entry(GPU, List.of(t4 + "::0", t4 + "::1")));
    assertThat(single.notes()).hasSize(1);
    assertThat(single.notes().getFirst())
        .contains("found 1g.10gb+me, 1g.5gb, 3g.40gb")
        .contains("no MIG slice is advertised");

    Inventory none = build(observed, replicas, MigStrategy.NONE);
    assertThat(idsByResource(none))
        .containsExactly(
            Map.entry(
                GPU,
                List.of(
                        observed.gpus().get(0).uuid(),
                        observed.gpus().get(1).uuid(),
                        t4 + "::0",
                        t4 + "::1")
                    .stream()
                    .sorted()
                    .toList()));
  }

  @Test
  void singleWithWholeGpusBesideOneSliceProfileAdvertisesOnlyTheWholeGpus() {
    node.reset("A100-SXM4-40GB,T4");
    ObservedNode observed = node.shape(GpuTarget.mig(GPU0, times(7, "1g.5gb")));

    Inventory inventory = build(observed, Map.of(), MigStrategy.SINGLE);

    assertThat(idsByResource(inventory))
        .containsExactly(Map.entry(GPU, List.of(observed.gpus().get(1).uuid())));
    assertThat(inventory.notes().getFirst())
        .startsWith("migd.mig-strategy=single")
        .contains("1g.5gb")
        .contains("no MIG slice is advertised");
  }
}
