package io.migd.pool.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.claims.AllocatedClaim;
import io.migd.layout.GpuIndex;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class TestAllocatorTest {
  private final TestAllocator allocator = new TestAllocator();

  @Test
  void takesTheFirstMatchingDeviceInListedOrder() {
    var pool = ToyPool.pool(2, 1);

    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "1g")), pool))
        .containsExactly("gpu-0-mig-1g-0");
    assertThat(names(TestClaim.of("b", DeviceRequest.profile("r", "1g")), pool))
        .containsExactly("gpu-0-mig-1g-1");
    assertThat(names(TestClaim.of("c", DeviceRequest.type("r", "gpu", 1)), pool))
        .containsExactly("gpu-1");
  }

  @Test
  void readsSlicesByNameNotInTheOrderGiven() {
    var pool = new ArrayList<>(ToyPool.pool(2, 1));
    pool.add(pool.remove(1));

    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "4g")), pool))
        .containsExactly("gpu-0-mig-4g-0");
  }

  @Test
  void honoursCountersAcrossClaimsUntilReleased() {
    var pool = ToyPool.pool(1, 1);

    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "1g")), pool))
        .containsExactly("gpu-0-mig-1g-0");
    assertThat(names(TestClaim.of("b", DeviceRequest.profile("r", "2g")), pool))
        .as("2g at 0 overlaps the 1g at 0")
        .containsExactly("gpu-0-mig-2g-2");
    assertThat(allocator.allocate(TestClaim.of("c", DeviceRequest.profile("r", "4g")), pool))
        .isEmpty();
    assertThat(allocator.allocate(TestClaim.of("d", DeviceRequest.type("r", "gpu", 1)), pool))
        .isEmpty();

    allocator.release("a");
    assertThat(allocator.allocate(TestClaim.of("c", DeviceRequest.profile("r", "4g")), pool))
        .as("the 2g at 2 still holds memory slices 2 and 3")
        .isEmpty();
    allocator.release("b");
    assertThat(names(TestClaim.of("c", DeviceRequest.profile("r", "4g")), pool))
        .containsExactly("gpu-0-mig-4g-0");
  }

  @Test
  void countsWhatAHeldDeviceConsumedWhenThePoolIsRepublished() {
    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "2g")), ToyPool.pool(1, 1)))
        .containsExactly("gpu-0-mig-2g-0");

    assertThat(
            allocator.allocate(
                TestClaim.of("b", DeviceRequest.profile("r", "4g")), ToyPool.pool(1, 2)))
        .isEmpty();
    assertThat(allocator.allocatedDevices()).containsExactly("gpu-0-mig-2g-0");
  }

  @Test
  void aWholeGpuAllocatedStaticHoldsItsCounterSetOnceItIsPublishedDynamic() {
    var staticWhole =
        new PoolDevice(
            "gpu-0",
            ToyPool.whole(0).attributes(),
            ToyPool.whole(0).capacity(),
            List.of(),
            List.of(),
            ToyPool.whole(0).origin());
    var asStatic =
        ToyPool.publish(
            List.of(
                new PoolSlice(
                    ToyPool.sliceName(0),
                    new PoolSlice.Devices(new GpuIndex(0), List.of(staticWhole)))),
            1);
    assertThat(names(TestClaim.of("a", DeviceRequest.type("r", "gpu", 1)), asStatic))
        .containsExactly("gpu-0");

    assertThat(
            allocator.allocate(
                TestClaim.of("b", DeviceRequest.profile("r", "1g")), ToyPool.pool(1, 2)))
        .as("gpu-0 consumes every memory slice as published now")
        .isEmpty();
    allocator.release("a");
    assertThat(names(TestClaim.of("b", DeviceRequest.profile("r", "1g")), ToyPool.pool(1, 2)))
        .containsExactly("gpu-0-mig-1g-0");
  }

  @Test
  void skipsDevicesTaintedNoScheduleOrNoExecuteButNotNone() {
    var devices = new ArrayList<>(ToyPool.gpu(0));
    devices.set(0, ToyPool.tainted(devices.get(0), xid(Taint.Effect.NO_SCHEDULE)));
    devices.set(1, ToyPool.tainted(devices.get(1), xid(Taint.Effect.NO_EXECUTE)));
    devices.set(2, ToyPool.tainted(devices.get(2), xid(Taint.Effect.NONE)));
    var pool = onePool(devices);

    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "1g")), pool))
        .containsExactly("gpu-0-mig-1g-2");
  }

  @Test
  void allocatesEveryRequestOrNothing() {
    var pool = ToyPool.pool(1, 1);
    var claim =
        TestClaim.of(
            "a",
            DeviceRequest.profile("small", "1g"),
            new DeviceRequest(
                "pair", 2, List.of(new DeviceRequest.Selector.TextIs("profile", "2g"))));

    assertThat(allocator.allocate(claim, pool)).isEmpty();
    assertThat(allocator.allocatedDevices()).isEmpty();
    assertThat(names(TestClaim.of("b", DeviceRequest.profile("r", "4g")), pool))
        .containsExactly("gpu-0-mig-4g-0");
  }

  @Test
  void backtracksWhenAnEarlierRequestBlocksALaterOne() {
    var second = new ArrayList<>(ToyPool.gpu(1));
    second.set(6, ToyPool.tainted(second.get(6), xid(Taint.Effect.NO_SCHEDULE)));
    var pool =
        ToyPool.publish(
            List.of(
                new PoolSlice(
                    ToyPool.sliceName(0),
                    new PoolSlice.Counters(List.of(ToyPool.counterSet(0), ToyPool.counterSet(1)))),
                new PoolSlice(
                    ToyPool.sliceName(1), new PoolSlice.Devices(new GpuIndex(0), ToyPool.gpu(0))),
                new PoolSlice(
                    ToyPool.sliceName(2), new PoolSlice.Devices(new GpuIndex(1), second))),
            1);
    var claim =
        TestClaim.of(
            "a", DeviceRequest.type("any", "mig", 1), DeviceRequest.profile("large", "4g"));

    var allocated = allocator.allocate(claim, pool).orElseThrow();

    assertThat(allocated.results())
        .containsExactly(
            new AllocatedClaim.Result("any", ToyPool.DRIVER, ToyPool.NODE, "gpu-1-mig-1g-0", false),
            new AllocatedClaim.Result(
                "large", ToyPool.DRIVER, ToyPool.NODE, "gpu-0-mig-4g-0", false));
  }

  @Test
  void selectsOnTypeProfileAndMinimumMemory() {
    var pool = ToyPool.pool(1, 1);

    assertThat(names(TestClaim.of("a", DeviceRequest.memoryAtLeast("r", 15 * ToyPool.GIB)), pool))
        .containsExactly("gpu-0-mig-2g-0");
    assertThat(names(TestClaim.of("b", DeviceRequest.type("r", "mig", 2)), pool))
        .containsExactly("gpu-0-mig-1g-2", "gpu-0-mig-1g-3");
  }

  @Test
  void buildsTheAllocatedClaimForPrepare() {
    var claim =
        new TestClaim("uid-1", "team", "train", List.of(DeviceRequest.profile("gpu", "1g")));

    var allocated = allocator.allocate(claim, ToyPool.pool(1, 1)).orElseThrow();

    assertThat(allocated)
        .isEqualTo(
            new AllocatedClaim(
                "uid-1",
                "team",
                "train",
                true,
                List.of(
                    new AllocatedClaim.Result(
                        "gpu", ToyPool.DRIVER, ToyPool.NODE, "gpu-0-mig-1g-0", false)),
                List.of(),
                List.of()));
    assertThatThrownBy(() -> allocator.allocate(claim, ToyPool.pool(1, 1)))
        .hasMessageContaining("uid-1 is allocated already");
  }

  @Test
  void readsOnlyTheHighestGeneration() {
    var older = ToyPool.pool(1, 1);
    var newer =
        ToyPool.publish(
            List.of(
                new PoolSlice(
                    ToyPool.sliceName(0), new PoolSlice.Counters(List.of(ToyPool.counterSet(0)))),
                new PoolSlice(
                    ToyPool.sliceName(1),
                    new PoolSlice.Devices(new GpuIndex(0), List.of(ToyPool.mig(0, "1g", 3, 1))))),
            2);

    var pool = Stream.concat(older.stream(), newer.stream()).toList();

    assertThat(names(TestClaim.of("a", DeviceRequest.profile("r", "1g")), pool))
        .containsExactly("gpu-0-mig-1g-3");
    assertThat(allocator.allocate(TestClaim.of("b", DeviceRequest.profile("r", "1g")), pool))
        .isEmpty();
  }

  @Test
  void failsOnAnIncompletePool() {
    var pool = ToyPool.pool(2, 1).subList(0, 2);

    assertThatThrownBy(
            () -> allocator.allocate(TestClaim.of("a", DeviceRequest.profile("r", "1g")), pool))
        .isInstanceOf(InvalidPoolException.class)
        .hasMessageContaining("generation 1 is incomplete: resourceSliceCount 3 but 2 slices");
  }

  @Test
  void failsOnAnInvalidPoolInsteadOfAllocatingNothing() {
    var devices = new ArrayList<>(ToyPool.gpu(0));
    devices.add(ToyPool.mig(0, "1g", 0, 1));

    assertThatThrownBy(
            () ->
                allocator.allocate(
                    TestClaim.of("a", DeviceRequest.profile("r", "1g")), onePool(devices)))
        .isInstanceOf(InvalidPoolException.class)
        .hasMessageContaining("device gpu-0-mig-1g-0 is published twice");
  }

  private List<String> names(TestClaim claim, List<PublishedSlice> pool) {
    return TestAllocator.deviceNames(allocator.allocate(claim, pool).orElseThrow());
  }

  private static List<PublishedSlice> onePool(List<PoolDevice> devices) {
    return ToyPool.publish(
        List.of(
            new PoolSlice(
                ToyPool.sliceName(0), new PoolSlice.Counters(List.of(ToyPool.counterSet(0)))),
            new PoolSlice(ToyPool.sliceName(1), new PoolSlice.Devices(new GpuIndex(0), devices))),
        1);
  }

  private static Taint xid(Taint.Effect effect) {
    return new Taint("gpu.nvidia.com/xid", "79", effect);
  }
}
