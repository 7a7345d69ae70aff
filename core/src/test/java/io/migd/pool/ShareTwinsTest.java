package io.migd.pool;

import static io.migd.pool.Pools.build;
import static io.migd.pool.Pools.counterSets;
import static io.migd.pool.Pools.devices;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedGpu;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.PublishedSlice;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ShareTwinsTest {
  private static final GpuFacts H100 = Facts.of("H100-SXM5-80GB", 0);
  private static final long GIB = 1L << 30;

  private static PoolGpu shared(GpuFacts facts, ObservedGpu observed, boolean dynamic) {
    return new PoolGpu(facts, observed, dynamic, true);
  }

  private static PoolDevice named(List<PoolDevice> devices, String name) {
    return devices.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void everyPlacementAndTheWholeGpuGetATwinAfterTheExclusiveDevices() {
    List<PoolDevice> devices = devices(build(shared(H100, Facts.migOff(H100), true)), 0);
    List<PoolDevice> exclusive = devices.stream().filter(d -> !d.shared()).toList();
    List<PoolDevice> twins = devices.stream().filter(PoolDevice::shared).toList();

    assertThat(devices.subList(0, exclusive.size())).isEqualTo(exclusive);
    assertThat(twins)
        .extracting(PoolDevice::name)
        .containsExactlyElementsOf(exclusive.stream().map(d -> d.name() + "-shared").toList());
    for (PoolDevice twin : twins) {
      PoolDevice of = named(exclusive, twin.name().replace("-shared", ""));
      assertThat(twin.consumes()).isEqualTo(of.consumes());
      assertThat(twin.attributes().get("type"))
          .isEqualTo(
              new Attribute.Text(
                  of.attributes().get("type").equals(new Attribute.Text("gpu"))
                      ? "gpu-share"
                      : "mig-share"));
      assertThat(twin.capacity()).containsEntry("compute", 100L);
      assertThat(twin.capacity().get("memory")).isEqualTo(of.capacity().get("memory"));
    }
  }

  @Test
  void computeIsHeldToWhatMpsServesAndMemoryToQuarterGibibytesFromOne() {
    List<PoolDevice> devices = devices(build(shared(H100, Facts.migOff(H100), true)), 0);

    var whole = (Allocation.Shared) named(devices, "gpu-0-shared").allocation();
    var slice = (Allocation.Shared) named(devices, "gpu-0-mig-1g10gb-19-0-shared").allocation();
    var half = (Allocation.Shared) named(devices, "gpu-0-mig-3g40gb-9-0-shared").allocation();

    var memory =
        new RequestPolicy.Range(GIB, GIB, OptionalLong.empty(), OptionalLong.of(256L << 20));
    assertThat(whole.policies().get("memory")).isEqualTo(memory);
    // 48 clients on the whole GPU: at least 3 %; a 1g of 7 slices serves 6: at least 17 %
    assertThat(whole.policies().get("compute"))
        .isEqualTo(new RequestPolicy.Range(3, 3, OptionalLong.of(100), OptionalLong.of(1)));
    assertThat(slice.policies().get("compute"))
        .isEqualTo(new RequestPolicy.Range(17, 17, OptionalLong.of(100), OptionalLong.of(1)));
    // 3g: floor(48 * 3 / 7) = 20 clients, at least 5 %
    assertThat(half.policies().get("compute"))
        .isEqualTo(new RequestPolicy.Range(5, 5, OptionalLong.of(100), OptionalLong.of(1)));
    assertThat(slice.policies().get("multiprocessors"))
        .isEqualTo(new RequestPolicy.Values(0, List.of(0L)));
    assertThat(slice.policies().keySet())
        .isEqualTo(named(devices, "gpu-0-mig-1g10gb-19-0-shared").capacity().keySet());
  }

  @Test
  void theTwinsOfEveryCatalogueModelPassTheApisRules() {
    var gpus = new ArrayList<PoolGpu>();
    int index = 0;
    for (GpuModel model : Facts.CATALOG.models()) {
      GpuFacts facts = Facts.of(model, index++);
      gpus.add(shared(facts, Facts.migOff(facts), true));
    }
    BuiltPool pool = build(gpus, ClaimedDevices.NONE, DeviceTaints.NONE);

    assertThat(pool.content().devices().stream().filter(PoolDevice::shared)).isNotEmpty();
    PoolValidator.requireValid(PublishedSlice.of(pool.content(), 1));
  }

  @Test
  void aGpuWithoutMigCountsItsMemoryOnceForTheGpuAndItsTwin() {
    GpuFacts l4 = Facts.of("L4", 0);
    BuiltPool pool = build(shared(l4, Facts.migOff(l4), false));

    assertThat(counterSets(pool))
        .singleElement()
        .satisfies(set -> assertThat(set.counters()).containsOnlyKeys("memory"));
    List<PoolDevice> devices = devices(pool, 0);
    assertThat(devices).extracting(PoolDevice::name).containsExactly("gpu-0", "gpu-0-shared");
    assertThat(devices.get(0).consumes()).isEqualTo(devices.get(1).consumes()).hasSize(1);
    assertThat(devices.get(0).consumes().getFirst().counters())
        .containsEntry("memory", l4.memoryBytes());
  }

  @Test
  void aStaticGpuWithMigOnPublishesNoTwinAndSaysWhy() {
    BuiltPool pool = build(shared(H100, Facts.migOn(H100), false));

    assertThat(pool.content().devices()).noneMatch(PoolDevice::shared);
    assertThat(pool.reasons().get(new GpuIndex(0)))
        .anySatisfy(reason -> assertThat(reason).contains("shares: true needs dynamic: true"));
  }

  @Test
  void twinsWithPreparedSharesComeFirstTheMostUsedFirst() {
    String busy = "gpu-0-mig-2g20gb-14-4-shared";
    String lessBusy = "gpu-0-mig-1g10gb-19-6-shared";
    ClaimedDevices claimed =
        () -> List.of(share("a", busy), share("b", lessBusy), share("c", busy), share("d", busy));

    List<String> twins =
        devices(
                build(List.of(shared(H100, Facts.migOff(H100), true)), claimed, DeviceTaints.NONE),
                0)
            .stream()
            .filter(PoolDevice::shared)
            .map(PoolDevice::name)
            .toList();

    assertThat(twins.subList(0, 2)).containsExactly(busy, lessBusy);
  }

  private static CheckpointClaim share(String claim, String twin) {
    int gi = twin.equals("gpu-0-mig-2g20gb-14-4-shared") ? 5 : 13;
    var device =
        new ClaimDevice.Made(
            twin,
            H100.gpu(),
            H100.uuid(),
            new ClaimDevice.MigInstance(gi, 0, Facts.migUuid(H100, gi, 0)));
    var entry =
        new CheckpointClaim.Device(device, CheckpointClaim.Kind.STATIC, List.of(), List.of(), "");
    return new CheckpointClaim(new ClaimKey("uid-" + claim, "ml", claim), true, List.of(entry));
  }
}
