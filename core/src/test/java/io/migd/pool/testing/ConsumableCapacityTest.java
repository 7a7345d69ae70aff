package io.migd.pool.testing;

import static io.migd.pool.testing.ToyPool.GIB;
import static io.migd.pool.testing.ToyPool.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.AllocatedClaim;
import io.migd.layout.GpuIndex;
import io.migd.pool.Attribute;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.RequestPolicy;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The test allocator's consumable capacity, upstream's allocator cases on fixtures of our own. */
class ConsumableCapacityTest {
  private static final String UUID_V4 =
      "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

  private final TestAllocator allocator = new TestAllocator();

  /** What a share asks and what it must consume of the 1g twin (10 GiB, compute 100). */
  record Case(String name, Map<String, Long> ask, Map<String, Long> consumed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> rounding() {
    return Stream.of(
        new Case(
            "rounded up to the next step from min",
            Map.of("memory", GIB + 1, "compute", 10L),
            Map.of("memory", GIB + 256 * MIB, "compute", 10L)),
        new Case(
            "a step multiple as asked",
            Map.of("memory", 2 * GIB + 512 * MIB, "compute", 50L),
            Map.of("memory", 2 * GIB + 512 * MIB, "compute", 50L)),
        new Case(
            "below min raised to min",
            Map.of("memory", 100 * MIB, "compute", 1L),
            Map.of("memory", GIB, "compute", 3L)),
        new Case(
            "an omitted capacity consumes its default",
            Map.of("memory", 4 * GIB),
            Map.of("memory", 4 * GIB, "compute", 3L)),
        new Case("nothing asked: every default", Map.of(), Map.of("memory", GIB, "compute", 3L)));
  }

  @ParameterizedTest
  @MethodSource("rounding")
  void consumesEachCapacityAsItsPolicyRoundsTheAsk(Case c) {
    var result = share("a", DeviceRequest.share("r", c.ask()), ToyPool.sharedPool(1, 1));

    assertThat(result.device()).isEqualTo("gpu-0-mig-1g-0-shared");
    assertThat(result.consumedCapacity()).isEqualTo(c.consumed());
  }

  @Test
  void aCapacityWithoutPolicyIsConsumedWholeByEveryShareThatOmitsIt() {
    var whole = ToyPool.whole(0);
    var noPolicy =
        ToyPool.twin(
            whole,
            Map.of("memory", 40 * GIB, "multiprocessors", 132L),
            Map.of("memory", ToyPool.MEMORY));
    var pool = onePool(whole, noPolicy);

    assertThat(share("a", DeviceRequest.share("r", Map.of("memory", GIB)), pool).consumedCapacity())
        .containsEntry("multiprocessors", 132L);
    assertThat(
            allocator.allocate(
                TestClaim.of("b", DeviceRequest.share("r", Map.of("memory", GIB))), pool))
        .as("the first share holds every multiprocessor")
        .isEmpty();

    var zeroOnly =
        ToyPool.twin(
            whole,
            Map.of("memory", 40 * GIB, "multiprocessors", 132L),
            Map.of(
                "memory",
                ToyPool.MEMORY,
                "multiprocessors",
                new RequestPolicy.Values(0, List.of(0L))));
    var readable = new TestAllocator();
    for (var claim : List.of("c", "d")) {
      assertThat(
              readable
                  .allocate(
                      TestClaim.of(claim, DeviceRequest.share("r", Map.of("memory", GIB))),
                      onePool(whole, zeroOnly))
                  .orElseThrow()
                  .results()
                  .getFirst()
                  .consumedCapacity())
          .containsEntry("multiprocessors", 0L);
    }
    assertThat(
            readable.allocate(
                TestClaim.of("e", DeviceRequest.share("r", Map.of("multiprocessors", 1L))),
                onePool(whole, zeroOnly)))
        .as("1 is above every valid value")
        .isEmpty();
  }

  @Test
  void triesTheNextDeviceWhenOneCannotServeTheAsk() {
    var pool = ToyPool.sharedPool(1, 1);

    assertThat(share("a", DeviceRequest.share("r", Map.of("memory", 15 * GIB)), pool).device())
        .as("15 GiB is more than a 1g twin has")
        .isEqualTo("gpu-0-mig-2g-0-shared");
    assertThat(
            allocator.allocate(
                TestClaim.of("b", DeviceRequest.share("r", Map.of("compute", 101L))), pool))
        .as("above the range's max on every twin")
        .isEmpty();
    assertThat(
            allocator.allocate(
                TestClaim.of("c", DeviceRequest.share("r", Map.of("bandwidth", 1L))), pool))
        .as("no twin defines bandwidth")
        .isEmpty();
  }

  @Test
  void keepsTheSharesOfADeviceWithinItsCapacityUntilOneIsReleased() {
    var pool = onePool(ToyPool.whole(0), ToyPool.twin(ToyPool.whole(0)));
    var sixteen = DeviceRequest.share("r", Map.of("memory", 16 * GIB));

    share("a", sixteen, pool);
    share("b", sixteen, pool);
    assertThat(allocator.allocate(TestClaim.of("c", sixteen), pool)).as("48 GiB of 40").isEmpty();
    assertThat(
            share("d", DeviceRequest.share("r", Map.of("memory", 8 * GIB, "compute", 94L)), pool)
                .consumedCapacity())
        .as("the rest of the memory; compute 3 + 3 + 94")
        .containsEntry("memory", 8 * GIB);
    assertThat(allocator.allocate(TestClaim.of("e", DeviceRequest.share("r", Map.of())), pool))
        .isEmpty();

    allocator.release("a");
    assertThat(share("c", sixteen, pool).device()).isEqualTo("gpu-0-shared");
  }

  @Test
  void takesASharedDevicesCountersWithItsFirstShareAndFreesThemWithItsLast() {
    var pool = ToyPool.sharedPool(1, 1);
    var wholeShare = shareOf("gpu-share", Map.of("memory", GIB));
    var oneG = DeviceRequest.profile("r", "1g");

    share("s1", wholeShare, pool);
    assertThat(share("s2", wholeShare, pool).device())
        .as("the second share's counters are not checked again")
        .isEqualTo("gpu-0-shared");
    assertThat(allocator.allocate(TestClaim.of("x", oneG), pool)).isEmpty();

    allocator.release("s1");
    assertThat(allocator.allocate(TestClaim.of("x", oneG), pool))
        .as("s2 still holds them")
        .isEmpty();
    allocator.release("s2");
    assertThat(
            TestAllocator.deviceNames(
                allocator.allocate(TestClaim.of("x", oneG), pool).orElseThrow()))
        .containsExactly("gpu-0-mig-1g-0");
    assertThat(allocator.allocate(TestClaim.of("s3", wholeShare), pool))
        .as("the 1g holds a memory slice the whole GPU's twin needs")
        .isEmpty();
  }

  @Test
  void givesEveryShareItsOwnShareIdAndExclusiveResultsNone() {
    var pool = ToyPool.sharedPool(1, 1);

    var shares =
        Stream.of("a", "b", "c")
            .map(uid -> share(uid, DeviceRequest.share("r", Map.of()), pool))
            .toList();
    var alone = share("d", DeviceRequest.profile("r", "2g"), pool);

    assertThat(shares)
        .extracting(AllocatedClaim.Result::device)
        .containsOnly("gpu-0-mig-1g-0-shared");
    assertThat(shares)
        .extracting(r -> r.shareId().orElseThrow())
        .doesNotHaveDuplicates()
        .allSatisfy(id -> assertThat(id).matches(UUID_V4));
    assertThat(alone.device()).isEqualTo("gpu-0-mig-2g-2");
    assertThat(alone.shareId()).isEmpty();
    assertThat(alone.consumedCapacity()).isEmpty();
  }

  @Test
  void beforeKubernetes1362AnExclusiveDeviceCanOverlapASharedOneInUse() {
    var pool = ToyPool.sharedPool(1, 1);
    var buggy = new TestAllocator(SchedulerBugs.SHARES_IGNORED_IN_COUNTERS);
    var wholeShare = shareOf("gpu-share", Map.of("memory", GIB));
    var wholeGpu = DeviceRequest.type("r", "gpu", 1);

    for (var scheduler : List.of(allocator, buggy)) {
      scheduler.allocate(TestClaim.of("s1", wholeShare), pool).orElseThrow();
      scheduler.allocate(TestClaim.of("s2", wholeShare), pool).orElseThrow();
    }

    assertThat(allocator.allocate(TestClaim.of("x", wholeGpu), pool)).isEmpty();
    assertThat(
            TestAllocator.deviceNames(
                buggy.allocate(TestClaim.of("x", wholeGpu), pool).orElseThrow()))
        .as("kubernetes#139034: the shares' counters are forgotten in a later cycle")
        .containsExactly("gpu-0");
  }

  @Test
  void rollsBackWhatAShareConsumedWhenTheSearchBacktracks() {
    var counters =
        new PoolSlice(
            ToyPool.sliceName(0),
            new PoolSlice.Counters(List.of(ToyPool.counterSet(0), ToyPool.counterSet(1))));
    var pool =
        ToyPool.publish(
            List.of(
                counters,
                new PoolSlice(
                    ToyPool.sliceName(1),
                    new PoolSlice.Devices(new GpuIndex(0), List.of(onGpu(0)))),
                new PoolSlice(
                    ToyPool.sliceName(2),
                    new PoolSlice.Devices(new GpuIndex(1), List.of(onGpu(1))))),
            1);
    var anyTwenty = DeviceRequest.share("any", Map.of("memory", 20 * GIB));
    var thirtyOnZero = onGpuZero("zero", 30 * GIB);

    var results =
        allocator
            .allocate(TestClaim.of("a", anyTwenty, thirtyOnZero), pool)
            .orElseThrow()
            .results();

    assertThat(results)
        .extracting(AllocatedClaim.Result::request, AllocatedClaim.Result::device)
        .containsExactly(Tuple.tuple("any", "gpu-1-shared"), Tuple.tuple("zero", "gpu-0-shared"));
    assertThat(share("b", onGpuZero("r", 10 * GIB), pool).device()).isEqualTo("gpu-0-shared");
    assertThat(allocator.allocate(TestClaim.of("c", onGpuZero("r", GIB)), pool))
        .as("gpu 0 holds 30 + 10 GiB, nothing of the 20 GiB tried there first")
        .isEmpty();
  }

  @Test
  void letsTwoRequestsOfAClaimShareADeviceButNeverOneRequestTwice() {
    var pool = onePool(ToyPool.whole(0), ToyPool.twin(ToyPool.whole(0)));
    var claim =
        TestClaim.of(
            "a",
            DeviceRequest.share("first", Map.of("memory", 10 * GIB)),
            DeviceRequest.share("second", Map.of("memory", 10 * GIB)));

    var results = allocator.allocate(claim, pool).orElseThrow().results();

    assertThat(results).extracting(AllocatedClaim.Result::device).containsOnly("gpu-0-shared");
    assertThat(results.get(0).shareId()).isNotEqualTo(results.get(1).shareId());
    var twice =
        new DeviceRequest(
            "pair",
            2,
            List.of(new DeviceRequest.Selector.AllowsMultipleAllocations(true)),
            new TreeMap<>(Map.of("memory", GIB)));
    assertThat(allocator.allocate(TestClaim.of("b", twice), pool)).isEmpty();
  }

  @Test
  void aSharedDeviceWithCountersButNoCapacityTakesOneShare() {
    var whole = ToyPool.whole(0);
    var pool = onePool(whole, ToyPool.twin(whole, Map.of(), Map.of()));

    var first = share("a", DeviceRequest.share("r", Map.of()), pool);

    assertThat(first.consumedCapacity()).isEmpty();
    assertThat(allocator.allocate(TestClaim.of("b", DeviceRequest.share("r", Map.of())), pool))
        .as("no consumedCapacity, so a later cycle checks the counters the first share holds")
        .isEmpty();
  }

  @Test
  void exclusiveRequestsNeverGetATwinAndFilterOnCapacity() {
    var twinsOnly = onePool(ToyPool.twin(ToyPool.whole(0)));
    var exclusive = new DeviceRequest.Selector.AllowsMultipleAllocations(false);
    var fifteen =
        new DeviceRequest("r", 1, List.of(exclusive), new TreeMap<>(Map.of("memory", 15 * GIB)));

    assertThat(allocator.allocate(TestClaim.of("a", DeviceRequest.type("r", "gpu", 1)), twinsOnly))
        .as("a twin's type is gpu-share")
        .isEmpty();
    assertThat(allocator.allocate(TestClaim.of("b", fifteen), twinsOnly)).isEmpty();
    var alone = share("c", fifteen, ToyPool.sharedPool(1, 1));
    assertThat(alone.device()).as("the first device with 15 GiB").isEqualTo("gpu-0-mig-2g-0");
    assertThat(alone.shareId()).isEmpty();
  }

  private AllocatedClaim.Result share(
      String uid, DeviceRequest request, List<PublishedSlice> pool) {
    return allocator.allocate(TestClaim.of(uid, request), pool).orElseThrow().results().getFirst();
  }

  private static DeviceRequest shareOf(String type, Map<String, Long> ask) {
    return new DeviceRequest(
        "r",
        1,
        List.of(
            new DeviceRequest.Selector.AllowsMultipleAllocations(true),
            new DeviceRequest.Selector.TextIs("type", type)),
        new TreeMap<>(ask));
  }

  private static DeviceRequest onGpuZero(String name, long memory) {
    return new DeviceRequest(
        name,
        1,
        List.of(
            new DeviceRequest.Selector.AllowsMultipleAllocations(true),
            new DeviceRequest.Selector.TextIs("gpu", "0")),
        new TreeMap<>(Map.of("memory", memory)));
  }

  /** The whole GPU's twin with a text attribute {@code gpu} naming its index. */
  private static PoolDevice onGpu(int gpu) {
    var twin = ToyPool.twin(ToyPool.whole(gpu));
    var attributes = new TreeMap<>(twin.attributes());
    attributes.put("gpu", new Attribute.Text(Integer.toString(gpu)));
    return new PoolDevice(
        twin.name(),
        attributes,
        twin.capacity(),
        twin.consumes(),
        twin.taints(),
        twin.origin(),
        twin.allocation());
  }

  /** GPU 0's counter set and these devices. */
  private static List<PublishedSlice> onePool(PoolDevice... devices) {
    return ToyPool.publish(
        List.of(
            new PoolSlice(
                ToyPool.sliceName(0), new PoolSlice.Counters(List.of(ToyPool.counterSet(0)))),
            new PoolSlice(
                ToyPool.sliceName(1), new PoolSlice.Devices(new GpuIndex(0), List.of(devices)))),
        1);
  }
}
