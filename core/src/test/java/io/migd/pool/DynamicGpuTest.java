package io.migd.pool;

import static io.migd.pool.Pools.build;
import static io.migd.pool.Pools.claimed;
import static io.migd.pool.Pools.claims;
import static io.migd.pool.Pools.counterSets;
import static io.migd.pool.Pools.deviceNames;
import static io.migd.pool.Pools.devices;
import static io.migd.pool.Pools.dynamic;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.nvml.ProcessInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DynamicGpuTest {
  private static final GpuFacts H100 = Facts.of("H100-SXM5-80GB", 0);
  private static final GpuFacts A100 = Facts.of("A100-SXM4-40GB", 0);
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final long MIB = 1L << 20;

  private static Map<String, Long> counters(long memoryMiB, long... values) {
    var counters = new LinkedHashMap<String, Long>();
    for (int i = 0; i < 8; i++) {
      counters.put("memory-slice-" + i, 1L);
    }
    counters.put("memory", memoryMiB * MIB);
    String[] names = {
      "multiprocessors", "copy-engines", "decoders", "encoders", "jpeg-engines", "ofa-engines"
    };
    for (int i = 0; i < names.length; i++) {
      counters.put(names[i], values[i]);
    }
    return counters;
  }

  @Test
  void h100CounterSetHoldsEveryMemorySliceAndTheLargestProfileValues() {
    BuiltPool pool = build(dynamic(H100, Facts.migOff(H100)));

    assertThat(counterSets(pool))
        .singleElement()
        .satisfies(
            set -> {
              assertThat(set.name()).isEqualTo("gpu-0-counter-set");
              assertThat(set.counters())
                  .containsExactlyEntriesOf(counters(81152, 132, 8, 7, 0, 7, 1));
            });
  }

  @Test
  void a100CounterSetHoldsEveryMemorySliceAndTheLargestProfileValues() {
    BuiltPool pool = build(dynamic(A100, Facts.migOn(A100)));

    assertThat(counterSets(pool))
        .singleElement()
        .satisfies(
            set ->
                assertThat(set.counters())
                    .containsExactlyEntriesOf(counters(40320, 98, 7, 5, 0, 1, 1)));
  }

  @Test
  void migDeviceConsumesItsProfileAndTheMemorySlicesOfItsPlacement() {
    BuiltPool pool = build(dynamic(H100, Facts.migOff(H100)));

    PoolDevice device = pool.content().device("gpu-0-mig-3g40gb-9-4").orElseThrow();
    assertThat(device.consumes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.counterSet()).isEqualTo("gpu-0-counter-set");
              var expected = new LinkedHashMap<String, Long>();
              for (int i = 4; i < 8; i++) {
                expected.put("memory-slice-" + i, 1L);
              }
              expected.putAll(
                  Map.of(
                      "memory", 40448 * MIB,
                      "multiprocessors", 60L,
                      "copy-engines", 3L,
                      "decoders", 3L,
                      "encoders", 0L,
                      "jpeg-engines", 3L,
                      "ofa-engines", 0L));
              assertThat(c.counters()).containsExactlyInAnyOrderEntriesOf(expected);
            });
    assertThat(device.capacity())
        .containsEntry("memory", 40448 * MIB)
        .containsEntry("multiprocessors", 60L)
        .containsEntry("copyEngines", 3L);
    assertThat(device.attributes())
        .containsEntry("type", new Attribute.Text("mig"))
        .containsEntry("profile", new Attribute.Text("3g.40gb"))
        .containsEntry("parentUUID", new Attribute.Text(H100.uuid()))
        .containsEntry("placementStart", new Attribute.Int(4))
        .containsEntry("placementSize", new Attribute.Int(4))
        .containsEntry("driverVersion", new Attribute.Version("580.95.5"))
        .containsEntry("cudaDriverVersion", new Attribute.Version("13.0.0"))
        .containsEntry("cudaComputeCapability", new Attribute.Version("9.0.0"))
        .containsEntry("resource.kubernetes.io/pciBusID", new Attribute.Text("0000:10:00.0"))
        .doesNotContainKey("uuid");
    assertThat(device.origin())
        .isEqualTo(new DeviceOrigin.DynamicPlacement(GPU0, H100.uuid(), "3g.40gb", 9, 4, 4));
  }

  @Test
  void h100PublishesEveryPlacementThenTheWholeGpuConsumingEverything() {
    BuiltPool pool = build(dynamic(H100, Facts.migOff(H100)));

    List<PoolDevice> devices = devices(pool, 0);
    assertThat(devices).hasSize(7 + 7 + 4 + 3 + 2 + 1 + 1 + 1);
    PoolDevice whole = devices.getLast();
    assertThat(whole.name()).isEqualTo("gpu-0");
    assertThat(whole.consumes().getFirst().counters())
        .containsExactlyEntriesOf(counterSets(pool).getFirst().counters());
    assertThat(whole.origin()).isEqualTo(new DeviceOrigin.WholeGpu(GPU0, H100.uuid(), true));
    assertThat(whole.attributes()).containsEntry("uuid", new Attribute.Text(H100.uuid()));
    assertThat(pool.reasons()).isEmpty();
  }

  @Test
  void ordersProfilesByMemoryThenIdAndPlacementsByWhatTheyLeaveFree() {
    BuiltPool pool = build(dynamic(H100, Facts.migOff(H100)));

    assertThat(deviceNames(pool, 0))
        .containsExactly(
            // equal scores: the one leaving the free slices in one stretch (0) before those that
            // would split them (3, 2, 1)
            "gpu-0-mig-1g10gb-19-6",
            "gpu-0-mig-1g10gb-19-5",
            "gpu-0-mig-1g10gb-19-4",
            "gpu-0-mig-1g10gb-19-0",
            "gpu-0-mig-1g10gb-19-3",
            "gpu-0-mig-1g10gb-19-2",
            "gpu-0-mig-1g10gb-19-1",
            "gpu-0-mig-1g10gb-me-20-6",
            "gpu-0-mig-1g10gb-me-20-5",
            "gpu-0-mig-1g10gb-me-20-4",
            "gpu-0-mig-1g10gb-me-20-0",
            "gpu-0-mig-1g10gb-me-20-3",
            "gpu-0-mig-1g10gb-me-20-2",
            "gpu-0-mig-1g10gb-me-20-1",
            // 2g.20gb (id 14) before 1g.20gb (id 15): same memory, lower id
            "gpu-0-mig-2g20gb-14-4",
            "gpu-0-mig-2g20gb-14-0",
            "gpu-0-mig-2g20gb-14-2",
            "gpu-0-mig-1g20gb-15-6",
            "gpu-0-mig-1g20gb-15-4",
            "gpu-0-mig-1g20gb-15-0",
            "gpu-0-mig-1g20gb-15-2",
            "gpu-0-mig-4g40gb-5-0",
            "gpu-0-mig-3g40gb-9-4",
            "gpu-0-mig-3g40gb-9-0",
            "gpu-0-mig-7g80gb-0-0",
            "gpu-0");
    assertThat(pool.freePlacements(GPU0))
        .containsExactly(
            Map.entry("1g.10gb", 7),
            Map.entry("1g.10gb+me", 7),
            Map.entry("2g.20gb", 3),
            Map.entry("1g.20gb", 4),
            Map.entry("4g.40gb", 1),
            Map.entry("3g.40gb", 2),
            Map.entry("7g.80gb", 1));
  }

  @Test
  void nextSmallSliceGoesBesideAPreparedOneAndLargePlacementsStayFree() {
    String prepared = "gpu-0-mig-1g10gb-19-6";
    BuiltPool pool =
        build(
            List.of(dynamic(H100, Facts.migOn(H100, Facts.instance(H100, 7, "1g.10gb", 6)))),
            claims(claimed(H100, "c1", prepared, 7, 6, 1)),
            DeviceTaints.NONE);

    List<String> names = deviceNames(pool, 0);
    assertThat(names.subList(0, 7))
        .containsExactly(
            "gpu-0-mig-1g10gb-19-5",
            "gpu-0-mig-1g10gb-19-4",
            "gpu-0-mig-1g10gb-19-0",
            "gpu-0-mig-1g10gb-19-3",
            "gpu-0-mig-1g10gb-19-2",
            "gpu-0-mig-1g10gb-19-1",
            prepared);
    assertThat(pool.content().device(prepared).orElseThrow().attributes())
        .containsEntry("uuid", new Attribute.Text(Facts.migUuid(H100, 7, 0)));
    assertThat(pool.freePlacements(GPU0))
        .containsEntry("1g.10gb", 6)
        .containsEntry("2g.20gb", 3)
        .containsEntry("1g.20gb", 3)
        .containsEntry("4g.40gb", 1)
        .containsEntry("3g.40gb", 1)
        .containsEntry("7g.80gb", 0);
    assertThat(names).contains("gpu-0-mig-7g80gb-0-0", "gpu-0-mig-3g40gb-9-4").endsWith("gpu-0");
  }

  @Test
  void nextSmallSliceFillsTheHalfAPreparedOneStartedRatherThanOpeningTheOther() {
    // name or start order would put the next 1g at 6 and strand both halves for 3g.40gb
    BuiltPool pool =
        build(
            List.of(dynamic(H100, Facts.migOn(H100, Facts.instance(H100, 7, "1g.10gb", 0)))),
            claims(claimed(H100, "c1", "gpu-0-mig-1g10gb-19-0", 7, 0, 1)),
            DeviceTaints.NONE);

    assertThat(deviceNames(pool, 0)).first().isEqualTo("gpu-0-mig-1g10gb-19-1");
    assertThat(deviceNames(pool, 0))
        .filteredOn(n -> n.contains("-mig-2g20gb-"))
        .first()
        .isEqualTo("gpu-0-mig-2g20gb-14-2");
    assertThat(pool.freePlacements(GPU0)).containsEntry("3g.40gb", 1);
  }

  @Test
  void aFirstTwoSliceClaimGoesToTheEndOfTheGpu() {
    BuiltPool pool = build(dynamic(H100, Facts.migOff(H100)));

    assertThat(deviceNames(pool, 0))
        .filteredOn(n -> n.contains("-mig-2g20gb-"))
        .first()
        .isEqualTo("gpu-0-mig-2g20gb-14-4");
  }

  @Test
  void withholdsPlacementsOverlappingAnIdleInstanceNoClaimOwnsButKeepsItsOwnForReuse() {
    BuiltPool pool = build(dynamic(H100, Facts.migOn(H100, Facts.instance(H100, 2, "3g.40gb", 4))));

    assertThat(deviceNames(pool, 0))
        .containsExactly(
            "gpu-0-mig-1g10gb-19-0",
            "gpu-0-mig-1g10gb-19-3",
            "gpu-0-mig-1g10gb-19-2",
            "gpu-0-mig-1g10gb-19-1",
            "gpu-0-mig-1g10gb-me-20-0",
            "gpu-0-mig-1g10gb-me-20-3",
            "gpu-0-mig-1g10gb-me-20-2",
            "gpu-0-mig-1g10gb-me-20-1",
            "gpu-0-mig-2g20gb-14-0",
            "gpu-0-mig-2g20gb-14-2",
            "gpu-0-mig-1g20gb-15-0",
            "gpu-0-mig-1g20gb-15-2",
            "gpu-0-mig-4g40gb-5-0",
            "gpu-0-mig-3g40gb-9-4",
            "gpu-0-mig-3g40gb-9-0");
    assertThat(pool.content().device("gpu-0-mig-3g40gb-9-4").orElseThrow().attributes())
        .containsEntry("uuid", new Attribute.Text(Facts.migUuid(H100, 2, 0)));
    assertThat(pool.reasons(GPU0))
        .anySatisfy(r -> assertThat(r).contains("GPU instance 2 (3g.40gb at 4:4)", "no claim"))
        .anySatisfy(r -> assertThat(r).contains("whole GPU is not published"));
  }

  @Test
  void withholdsEveryPlacementOverlappingABusyInstanceNoClaimOwns() {
    var busy =
        Facts.observed(
            H100,
            true,
            true,
            List.of(Facts.instance(H100, 2, "3g.40gb", 4)),
            List.of(new ProcessInfo(4242, 1L << 30, 2, 0)));
    BuiltPool pool = build(dynamic(H100, busy));

    assertThat(deviceNames(pool, 0))
        .noneMatch(n -> n.equals("gpu-0-mig-3g40gb-9-4") || n.equals("gpu-0"))
        .hasSize(14);
    assertThat(pool.reasons(GPU0))
        .anySatisfy(r -> assertThat(r).contains("GPU instance 2 (3g.40gb at 4:4)", "4242"));
    assertThat(pool.freePlacements(GPU0)).containsEntry("3g.40gb", 1);
  }

  @Test
  void keepsPublishingAComputeInstanceAClaimPreparedWhileTheGpuWasStatic() {
    String device = "gpu-0-mig-2c4g40gb-5-0-ci2";
    var split = Facts.split(H100, 3, "4g.40gb", 0, 0, 1, 0, 1, 2, 2);
    var owner = claimed(H100, "s", device, 3, 1);
    BuiltPool pool =
        build(List.of(dynamic(H100, Facts.migOn(H100, split))), claims(owner), DeviceTaints.NONE);

    PoolDevice prepared = pool.content().device(device).orElseThrow();
    assertThat(prepared.attributes())
        .containsEntry("uuid", new Attribute.Text(Facts.migUuid(H100, 3, 1)));
    assertThat(prepared.consumes().getFirst().counters())
        .containsKeys("memory-slice-0", "memory-slice-3")
        .doesNotContainKey("memory-slice-4");
    assertThat(pool.content().device("gpu-0-mig-1c4g40gb-5-0-ci0")).isEmpty();
    assertThat(pool.reasons(GPU0)).isEmpty();
    assertThat(pool.freePlacements(GPU0)).containsEntry("4g.40gb", 0).containsEntry("3g.40gb", 1);
  }

  @Test
  void publishesNoMigDeviceWhileAProcessNoClaimOwnsUsesTheGpuWithMigOff() {
    var busy =
        Facts.observed(
            H100, false, false, List.of(), List.of(new ProcessInfo(77, 1L << 30, -1, -1)));
    BuiltPool pool = build(dynamic(H100, busy));

    assertThat(deviceNames(pool, 0)).containsExactly("gpu-0");
    assertThat(pool.reasons(GPU0)).singleElement().satisfies(r -> assertThat(r).contains("77"));
  }

  @Test
  void ampereWithMigPendingPublishesNothingAndSaysWhy() {
    BuiltPool pool = build(dynamic(A100, Facts.observed(A100, false, true, List.of(), List.of())));

    assertThat(devices(pool, 0)).isEmpty();
    assertThat(pool.reasons(GPU0))
        .singleElement()
        .satisfies(r -> assertThat(r).contains("MIG mode is not on yet", "Ampere"));
    assertThat(pool.freePlacements(GPU0)).containsEntry("1g.5gb", 0).containsEntry("7g.40gb", 0);
  }

  @Test
  void ampereWithMigOnPublishesEveryPlacementAndNoWholeGpu() {
    BuiltPool pool = build(dynamic(A100, Facts.migOn(A100)));

    assertThat(deviceNames(pool, 0))
        .hasSize(7 + 7 + 4 + 3 + 2 + 1 + 1)
        .doesNotContain("gpu-0")
        .first()
        .isEqualTo("gpu-0-mig-1g5gb-19-6");
    assertThat(pool.reasons()).isEmpty();
  }

  @Test
  void wholeGpuClaimLeavesNoPlacementFree() {
    BuiltPool pool =
        build(
            List.of(dynamic(H100, Facts.migOff(H100))),
            claims(Pools.wholeClaimed(H100, "w")),
            DeviceTaints.NONE);

    assertThat(pool.freePlacements(GPU0).values()).containsOnly(0);
    assertThat(deviceNames(pool, 0)).endsWith("gpu-0");
  }
}
