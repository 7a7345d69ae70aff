package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.ProfileName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** XIDs mark devices unhealthy, and each way back, on inventories of the simulated NVML. */
class DeviceHealthIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
  private static final Duration RECOVERY = Duration.ofMinutes(5);
  private static final String SPLIT = "nvidia.com/mig-1c.3g.20gb";
  private static final String TWO_G = "nvidia.com/mig-2g.10gb";
  private static SimNode node;
  private static Inventory inventory;

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB,T4");
    ObservedNode observed =
        node.shape(
            GpuTarget.mig(
                GPU0,
                List.of(
                    new GpuInstanceSpec(ProfileName.parse("3g.20gb"), List.of(1, 1, 1)),
                    GpuInstanceSpec.whole(ProfileName.parse("2g.10gb")))),
            GpuTarget.whole(GPU1, 4));
    inventory = InventoryBuilder.build(observed, Map.of(GPU1, 4), MigStrategy.MIXED);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static List<Device> all(Inventory inv) {
    return inv.resources().values().stream().flatMap(List::stream).toList();
  }

  private static List<String> unhealthy(Inventory inv) {
    return all(inv).stream().filter(d -> !d.healthy()).map(Device::id).sorted().toList();
  }

  private static List<String> ids(String resource) {
    return inventory.devices(resource).stream().map(Device::id).sorted().toList();
  }

  private static int splitGpuInstance() {
    return inventory.devices(SPLIT).getFirst().gpuInstanceId();
  }

  @ParameterizedTest
  @ValueSource(longs = {13, 31, 43, 45, 68, 109})
  void anApplicationXidLeavesEveryDeviceHealthy(long xid) {
    var health = new DeviceHealth();
    assertThat(DeviceHealth.isApplicationXid(xid)).isTrue();

    assertThat(health.onXid(inventory, GPU0, Usage.WHOLE_GPU, xid, T0)).isFalse();

    assertThat(health.apply(inventory)).isEqualTo(inventory);
  }

  @Test
  void aCriticalXidOnAGpuInstanceMarksOnlyTheDevicesInIt() {
    var health = new DeviceHealth();
    assertThat(DeviceHealth.isApplicationXid(79)).isFalse();

    assertThat(health.onXid(inventory, GPU0, splitGpuInstance(), 79, T0)).isTrue();

    Inventory applied = health.apply(inventory);
    assertThat(unhealthy(applied)).hasSize(3).containsExactlyElementsOf(ids(SPLIT));
    assertThat(applied.devices(TWO_G)).allSatisfy(d -> assertThat(d.healthy()).isTrue());
    assertThat(applied.devices(ResourceNames.GPU))
        .allSatisfy(d -> assertThat(d.healthy()).isTrue());
    assertThat(health.isMarked(SPLIT, ids(SPLIT).getFirst())).isTrue();
  }

  @Test
  void aCriticalXidOnAWholeGpuMarksEveryReplicaOfIt() {
    var health = new DeviceHealth();

    assertThat(health.onXid(inventory, GPU1, Usage.WHOLE_GPU, 48, T0)).isTrue();

    assertThat(unhealthy(health.apply(inventory)))
        .hasSize(4)
        .containsExactlyElementsOf(ids(ResourceNames.GPU));
  }

  @Test
  void aCriticalXidForTheWholeOfAMigGpuMarksEverySlice() {
    var health = new DeviceHealth();

    health.onXid(inventory, GPU0, Usage.WHOLE_GPU, 79, T0);

    var expected = new ArrayList<>(ids(SPLIT));
    expected.addAll(ids(TWO_G));
    Collections.sort(expected);
    assertThat(unhealthy(health.apply(inventory))).containsExactlyElementsOf(expected);
  }

  @Test
  void anXidOnAGpuWithNothingAdvertisedMarksNothing() {
    var health = new DeviceHealth();

    assertThat(health.onXid(inventory, new GpuIndex(5), Usage.WHOLE_GPU, 79, T0)).isFalse();
    assertThat(health.onXid(inventory, GPU0, 99, 79, T0)).isFalse();

    assertThat(unhealthy(health.apply(inventory))).isEmpty();
  }

  @Test
  void aGpuResetClearsTheMarksOfThatGpuOnly() {
    var health = new DeviceHealth();
    health.onXid(inventory, GPU0, Usage.WHOLE_GPU, 79, T0);
    health.onXid(inventory, GPU1, Usage.WHOLE_GPU, 79, T0);

    health.gpuReset(GPU0);

    assertThat(unhealthy(health.apply(inventory)))
        .containsExactlyElementsOf(ids(ResourceNames.GPU));
  }

  @Test
  void aDestroyedComputeInstanceComesBackHealthyAndItsNeighboursStayMarked() {
    var health = new DeviceHealth();
    health.onXid(inventory, GPU0, Usage.WHOLE_GPU, 79, T0);
    Device first = inventory.devices(SPLIT).getFirst();

    health.instanceGone(GPU0, first.gpuInstanceId(), first.computeInstanceId());

    assertThat(health.isMarked(SPLIT, first.id())).isFalse();
    assertThat(unhealthy(health.apply(inventory)))
        .hasSize(3)
        .doesNotContain(first.id())
        .containsAll(ids(TWO_G));
  }

  @Test
  void aDestroyedGpuInstanceComesBackHealthyWithAllItsComputeInstances() {
    var health = new DeviceHealth();
    health.onXid(inventory, GPU0, Usage.WHOLE_GPU, 79, T0);

    health.instanceGone(GPU0, splitGpuInstance(), Usage.ALL_COMPUTE_INSTANCES);

    assertThat(unhealthy(health.apply(inventory))).containsExactlyElementsOf(ids(TWO_G));
  }

  @Test
  void aDeviceRecoversOnlyAfterTheRecoveryPeriodSinceItsLastXid() {
    var health = new DeviceHealth();
    health.onXid(inventory, GPU1, Usage.WHOLE_GPU, 79, T0);
    Instant renewed = T0.plus(Duration.ofMinutes(3));
    assertThat(health.onXid(inventory, GPU1, Usage.WHOLE_GPU, 79, renewed)).isTrue();

    assertThat(health.recover(T0.plus(RECOVERY), RECOVERY, d -> true)).isFalse();
    assertThat(unhealthy(health.apply(inventory))).hasSize(4);

    assertThat(health.recover(renewed.plus(RECOVERY), RECOVERY, d -> true)).isTrue();
    assertThat(unhealthy(health.apply(inventory))).isEmpty();
  }

  @Test
  void aDeviceNvmlDoesNotAnswerForStaysUnhealthy() {
    var health = new DeviceHealth();
    health.onXid(inventory, GPU0, Usage.WHOLE_GPU, 79, T0);
    String silent = ids(TWO_G).getFirst();

    assertThat(
            health.recover(
                T0.plus(Duration.ofHours(1)),
                RECOVERY,
                d -> {
                  if (d.id().equals(ids(SPLIT).getFirst())) {
                    throw new IllegalStateException("NVML_ERROR_GPU_IS_LOST");
                  }
                  return !d.id().equals(silent);
                }))
        .isTrue();

    assertThat(unhealthy(health.apply(inventory)))
        .containsExactlyInAnyOrder(silent, ids(SPLIT).getFirst());
  }

  @Test
  void healthIsKeptPerResourceSoAUuidBackUnderAnotherProfileStartsHealthy() {
    try (SimNode other = SimNode.start("A100-SXM4-40GB")) {
      var sevenOnes = Collections.nCopies(7, GpuInstanceSpec.whole(ProfileName.parse("1g.5gb")));
      Inventory before =
          InventoryBuilder.build(
              other.shape(GpuTarget.mig(GPU0, sevenOnes)), Map.of(), MigStrategy.MIXED);
      var health = new DeviceHealth();
      health.onXid(before, GPU0, Usage.WHOLE_GPU, 79, T0);

      var withMediaExtension = new ArrayList<GpuInstanceSpec>(sevenOnes.subList(0, 6));
      withMediaExtension.add(GpuInstanceSpec.whole(ProfileName.parse("1g.5gb+me")));
      Inventory after =
          health.apply(
              InventoryBuilder.build(
                  other.shape(GpuTarget.mig(GPU0, withMediaExtension)),
                  Map.of(),
                  MigStrategy.MIXED));

      Device reborn = after.devices("nvidia.com/mig-1g.5gb.me").getFirst();
      assertThat(before.find("nvidia.com/mig-1g.5gb", reborn.id()))
          .as("NVML gives the +me slice the UUID a 1g.5gb slice had")
          .isPresent();
      assertThat(reborn.healthy()).isTrue();
      assertThat(after.devices("nvidia.com/mig-1g.5gb"))
          .hasSize(6)
          .allSatisfy(d -> assertThat(d.healthy()).isFalse());
    }
  }
}
