package io.migd.pool;

import static io.migd.pool.Pools.build;
import static io.migd.pool.Pools.counterSets;
import static io.migd.pool.Pools.deviceNames;
import static io.migd.pool.Pools.devices;
import static io.migd.pool.Pools.dynamic;
import static io.migd.pool.Pools.fixed;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimedDevices;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PoolSlicesTest {
  private static final long MIB = 1L << 20;

  @Test
  void sixteenDynamicGpusTakeTwoCounterSlicesThenOneDeviceSliceEachInMinorOrder() {
    var gpus = new ArrayList<PoolGpu>();
    for (int i = 15; i >= 0; i--) {
      GpuFacts facts = Facts.of("H100-SXM5-80GB", i);
      gpus.add(dynamic(facts, Facts.migOff(facts)));
    }
    BuiltPool pool = build(gpus, ClaimedDevices.NONE, DeviceTaints.NONE);

    List<PoolSlice> slices = pool.content().slices();
    assertThat(slices).hasSize(18);
    assertThat(slices.stream().map(PoolSlice::name).toList())
        .isSorted()
        .startsWith("000-gpu.nvidia.com-node-a", "001-gpu.nvidia.com-node-a")
        .endsWith("010-gpu.nvidia.com-node-a", "011-gpu.nvidia.com-node-a");
    assertThat(slices.subList(0, 2))
        .allSatisfy(
            s ->
                assertThat(s.content())
                    .isInstanceOfSatisfying(
                        PoolSlice.Counters.class, c -> assertThat(c.counterSets()).hasSize(8)));
    assertThat(
            slices.subList(2, 18).stream()
                .map(s -> ((PoolSlice.Devices) s.content()).gpu().value())
                .toList())
        .isEqualTo(IntStream.range(0, 16).boxed().toList());
    assertThat(counterSets(pool).stream().map(CounterSet::name).toList())
        .isEqualTo(IntStream.range(0, 16).mapToObj(i -> "gpu-" + i + "-counter-set").toList());
    assertWithinLimits(pool.content());
  }

  @Test
  void staticGpuWithoutMigIsOneWholeGpuWithNvidiasAttributes() {
    GpuFacts t4 = Facts.of("T4", 0);
    BuiltPool pool = build(fixed(t4, Facts.migOff(t4)));

    assertThat(pool.content().slices())
        .singleElement()
        .satisfies(s -> assertThat(s.name()).isEqualTo("000-gpu.nvidia.com-node-a"));
    PoolDevice whole = devices(pool, 0).getFirst();
    assertThat(whole.name()).isEqualTo("gpu-0");
    assertThat(whole.attributes())
        .containsEntry("type", new Attribute.Text("gpu"))
        .containsEntry("uuid", new Attribute.Text(t4.uuid()))
        .containsEntry("productName", new Attribute.Text("Tesla T4"))
        .containsEntry("brand", new Attribute.Text("Tesla"))
        .containsEntry("architecture", new Attribute.Text("Turing"))
        .containsEntry("cudaComputeCapability", new Attribute.Version("7.5.0"))
        .containsEntry("driverVersion", new Attribute.Version("580.95.5"))
        .containsEntry("cudaDriverVersion", new Attribute.Version("13.0.0"))
        .containsEntry("resource.kubernetes.io/pciBusID", new Attribute.Text("0000:10:00.0"))
        .containsEntry("resource.kubernetes.io/pcieRoot", new Attribute.Text("pci0000:10"))
        .containsEntry("resource.kubernetes.io/numaNode", new Attribute.Int(0))
        .containsEntry("index", new Attribute.Int(0))
        .containsEntry("minor", new Attribute.Int(0));
    assertThat(whole.capacity()).containsExactly(Map.entry("memory", 15360 * MIB));
    assertThat(whole.consumes()).isEmpty();
    assertThat(whole.origin())
        .isEqualTo(new DeviceOrigin.WholeGpu(new GpuIndex(0), t4.uuid(), false));
  }

  /**
   * NVIDIA's driver gives a whole GPU the capacities of its largest profile beside its memory, so a
   * selector on {@code device.capacity['gpu.nvidia.com'].multiprocessors} evaluates on it (issue
   * 29): on an H100 those of {@code 7g.80gb}, static or dynamic alike.
   */
  @Test
  void aWholeMigCapableGpuCarriesItsMemoryAndTheCapacitiesOfItsLargestProfile() {
    GpuFacts h100 = Facts.of("H100-SXM5-80GB", 0);
    GpuFacts.MigProfile largest =
        h100.profiles().stream().filter(p -> p.name().equals("7g.80gb")).findFirst().orElseThrow();
    var expected =
        Map.of(
            "memory", h100.memoryBytes(),
            "multiprocessors", (long) largest.multiprocessors(),
            "copyEngines", (long) largest.copyEngines(),
            "decoders", (long) largest.decoders(),
            "encoders", (long) largest.encoders(),
            "jpegEngines", (long) largest.jpegEngines(),
            "ofaEngines", (long) largest.ofaEngines());

    PoolDevice fixedWhole = devices(build(fixed(h100, Facts.migOff(h100))), 0).getFirst();
    PoolDevice dynamicWhole =
        build(dynamic(h100, Facts.migOff(h100))).content().device("gpu-0").orElseThrow();

    assertThat(largest.multiprocessors()).isEqualTo(132);
    assertThat(fixedWhole.capacity()).containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(dynamicWhole.capacity()).containsExactlyInAnyOrderEntriesOf(expected);
  }

  @Test
  void staticGpuWithMigPublishesItsInstancesWithUuidsAndNoCounters() {
    GpuFacts h100 = Facts.of("H100-SXM5-80GB", 1);
    var split = Facts.split(h100, 3, "4g.40gb", 0, 0, 1, 0, 1, 2, 2);
    var observed = Facts.migOn(h100, Facts.instance(h100, 9, "3g.40gb", 4), split);
    BuiltPool pool = build(fixed(h100, observed));

    assertThat(counterSets(pool)).isEmpty();
    assertThat(deviceNames(pool, 1))
        .containsExactly(
            "gpu-1-mig-1c4g40gb-5-0-ci0", "gpu-1-mig-2c4g40gb-5-0-ci2", "gpu-1-mig-3g40gb-9-4");
    PoolDevice whole = pool.content().device("gpu-1-mig-3g40gb-9-4").orElseThrow();
    assertThat(whole.attributes())
        .containsEntry("uuid", new Attribute.Text(Facts.migUuid(h100, 9, 0)))
        .containsEntry("profile", new Attribute.Text("3g.40gb"));
    assertThat(whole.capacity()).containsEntry("multiprocessors", 60L);
    assertThat(whole.consumes()).isEmpty();
    assertThat(whole.origin())
        .isEqualTo(
            new DeviceOrigin.StaticSlice(
                new GpuIndex(1), h100.uuid(), 9, 0, Facts.migUuid(h100, 9, 0)));
    PoolDevice part = pool.content().device("gpu-1-mig-1c4g40gb-5-0-ci0").orElseThrow();
    assertThat(part.attributes()).containsEntry("profile", new Attribute.Text("1c.4g.40gb"));
    assertThat(part.capacity()).doesNotContainKey("multiprocessors");
  }

  @Test
  void mixedNodeListsCounterSlicesOnlyForDynamicGpus() {
    GpuFacts t4 = Facts.of("T4", 0);
    GpuFacts h100 = Facts.of("H100-SXM5-80GB", 1);
    BuiltPool pool = build(fixed(t4, Facts.migOff(t4)), dynamic(h100, Facts.migOff(h100)));

    assertThat(pool.content().slices())
        .extracting(s -> s.content().getClass().getSimpleName())
        .containsExactly("Counters", "Devices", "Devices");
    assertWithinLimits(pool.content());
  }

  static Stream<String> migModels() {
    return Facts.CATALOG.migModels().stream().map(GpuModel::key);
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void everyMigModelOfTheCatalogueFitsTheApiLimitsAsAnEightGpuDynamicNode(String model) {
    var gpus = new ArrayList<PoolGpu>();
    for (int i = 0; i < 8; i++) {
      GpuFacts facts = Facts.of(model, i);
      gpus.add(dynamic(facts, Facts.observed(facts, true, true, List.of(), List.of())));
    }
    BuiltPool pool = build(gpus, ClaimedDevices.NONE, DeviceTaints.NONE);

    assertThat(pool.content().slices()).hasSize(9);
    assertThat(pool.reasons()).isEmpty();
    int perGpu =
        Facts.model(model).giProfiles().stream().mapToInt(p -> p.placements().size()).sum();
    boolean ampere = Facts.model(model).architecture() == 7;
    assertThat(devices(pool, 7)).hasSize(perGpu + (ampere ? 0 : 1));
    assertWithinLimits(pool.content());
  }

  /** The API's rules a published pool must keep (dra-api.md 2.2), checked on the records. */
  static void assertWithinLimits(PoolContent content) {
    var deviceNames = new HashSet<String>();
    var counters = new HashMap<String, Set<String>>();
    for (PoolSlice slice : content.slices()) {
      assertThat(slice.name()).matches("[0-9a-f]{3}-" + content.driver() + "-" + content.pool());
      if (slice.content() instanceof PoolSlice.Counters(var sets)) {
        assertThat(sets).hasSizeLessThanOrEqualTo(8);
        for (CounterSet set : sets) {
          assertThat(set.counters()).hasSizeLessThanOrEqualTo(32);
          assertThat(counters.put(set.name(), set.counters().keySet())).isNull();
        }
      }
    }
    for (PoolSlice slice : content.slices()) {
      if (slice.content() instanceof PoolSlice.Devices(var gpu, var devices)) {
        assertThat(devices).hasSizeLessThanOrEqualTo(64);
        for (PoolDevice device : devices) {
          assertThat(deviceNames.add(device.name())).as(device.name()).isTrue();
          assertThat(device.name()).matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
          assertThat(device.attributes().size() + device.capacity().size()).isLessThanOrEqualTo(32);
          assertThat(device.consumes()).hasSizeLessThanOrEqualTo(2);
          for (CounterConsumption c : device.consumes()) {
            assertThat(counters).containsKey(c.counterSet());
            assertThat(counters.get(c.counterSet())).containsAll(c.counters().keySet());
          }
        }
      }
    }
  }
}
