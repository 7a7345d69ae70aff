package io.migd.pool.testing;

import static io.migd.pool.testing.ToyPool.GIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.RequestPolicy;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PoolValidatorTest {
  /** A broken pool and the sentence that must name what is wrong. */
  record Case(String name, List<PublishedSlice> slices, String problem) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "driver longer than 63",
            retarget("a".repeat(60) + ".com", ToyPool.NODE),
            "is not a DNS subdomain of at most 63 characters"),
        new Case(
            "driver not a DNS subdomain",
            retarget("GPU_driver", ToyPool.NODE),
            "driver \"GPU_driver\" is not a DNS subdomain"),
        new Case(
            "pool name not DNS subdomains",
            retarget(ToyPool.DRIVER, "Node A"),
            "pool name \"Node A\" is not DNS subdomains"),
        new Case(
            "device name not a DNS label",
            withDevice(d -> renamed(d, "gpu-0.mig")),
            "device gpu-0.mig: the name is not a DNS label"),
        new Case(
            "duplicate device name",
            withDevice(d -> renamed(d, "gpu-0-mig-1g-1")),
            "device gpu-0-mig-1g-1 is published twice"),
        new Case(
            "duplicate counter set name",
            ToyPool.publish(
                List.of(
                    counters(0, List.of(ToyPool.counterSet(0))),
                    counters(1, List.of(ToyPool.counterSet(0))),
                    devices(2, ToyPool.gpu(0))),
                1),
            "counter set gpu-0-counter-set is published twice"),
        new Case(
            "consumed counter set missing",
            ToyPool.publish(List.of(counters(0, List.of()), devices(1, ToyPool.gpu(0))), 1),
            "device gpu-0-mig-1g-0 consumes counter set gpu-0-counter-set, which the pool lacks"),
        new Case(
            "consumed counter missing",
            withDevice(d -> consuming(d, List.of(ToyPool.memorySlices(0, 3, 2)))),
            "consumes counter memory-slice-4 of gpu-0-counter-set, which that set lacks"),
        new Case(
            "more than 32 attributes and capacities",
            withDevice(d -> withAttributes(d, 30)),
            "has 33 attributes and capacities, the API allows 32"),
        new Case(
            "version attribute longer than 64",
            withDevice(
                d ->
                    withAttribute(
                        d, "driverVersion", new Attribute.Version("1.2." + "3".repeat(70)))),
            "attribute driverVersion is longer than 64 characters"),
        new Case(
            "attribute name not qualified",
            withDevice(d -> withAttribute(d, "pci-bus", new Attribute.Int(1))),
            "attribute name \"pci-bus\" is not a qualified name"),
        new Case(
            "65 devices consuming counters",
            ToyPool.publish(
                List.of(
                    counters(0, List.of(ToyPool.counterSet(0))),
                    devices(1, copies(ToyPool.mig(0, "1g", 0, 1), 65))),
                1),
            "has 65 devices, the API allows 64 when devices consume counters or have taints"),
        new Case(
            "129 devices without counters",
            ToyPool.publish(
                List.of(devices(0, copies(consuming(ToyPool.mig(0, "1g", 0, 1), List.of()), 129))),
                1),
            "has 129 devices, the API allows 128"),
        new Case(
            "nine counter sets in a slice",
            ToyPool.publish(
                List.of(
                    counters(0, IntStream.range(0, 9).mapToObj(ToyPool::counterSet).toList()),
                    devices(1, ToyPool.gpu(0))),
                1),
            "has 9 counter sets, the API allows 8"),
        new Case(
            "33 counters in a set",
            ToyPool.publish(
                List.of(counters(0, List.of(bigSet(33))), devices(1, ToyPool.gpu(0))), 1),
            "counter set gpu-0-counter-set has 33 counters, the API allows 32"),
        new Case(
            "counter name not a DNS label",
            ToyPool.publish(
                List.of(
                    counters(
                        0,
                        List.of(
                            ToyPool.counterSet(0),
                            new CounterSet(
                                "gpu-1-counter-set",
                                new LinkedHashMap<>(Map.of("memory_slice", 1L))))),
                    devices(1, ToyPool.gpu(0))),
                1),
            "counter name \"memory_slice\" is not a DNS label"),
        new Case(
            "counter set name not a DNS label",
            ToyPool.publish(
                List.of(
                    counters(
                        0,
                        List.of(
                            ToyPool.counterSet(0), new CounterSet("GPU.1", new LinkedHashMap<>()))),
                    devices(1, ToyPool.gpu(0))),
                1),
            "counter set name \"GPU.1\" is not a DNS label"),
        new Case(
            "three consumptions by a device",
            withDevice(
                d ->
                    consuming(
                        d,
                        List.of(
                            ToyPool.memorySlices(0, 0, 1),
                            ToyPool.memorySlices(0, 1, 1),
                            ToyPool.memorySlices(0, 2, 1)))),
            "consumes 3 counter sets, the API allows 2"),
        new Case(
            "seventeen taints",
            withDevice(
                d ->
                    ToyPool.tainted(
                        d,
                        Collections.nCopies(
                                17, new Taint("gpu.nvidia.com/xid", "79", Taint.Effect.NONE))
                            .toArray(Taint[]::new))),
            "has 17 taints, the API allows 16"),
        new Case(
            "policy for a capacity the device lacks",
            withTwin(Map.of("compute", ToyPool.COMPUTE)),
            "request policy for capacity compute, which the device lacks"),
        new Case(
            "validValues default not listed",
            withMemoryPolicy(new RequestPolicy.Values(3 * GIB, List.of(GIB, 2 * GIB))),
            "capacity memory requestPolicy: default 3221225472 is not valid"),
        new Case(
            "eleven validValues",
            withMemoryPolicy(
                new RequestPolicy.Values(
                    GIB, LongStream.rangeClosed(1, 11).map(i -> i * GIB).boxed().toList())),
            "validValues has 11 entries, the API allows 10"),
        new Case(
            "validValues unsorted",
            withMemoryPolicy(new RequestPolicy.Values(GIB, List.of(2 * GIB, GIB))),
            "validValues must be sorted in ascending order"),
        new Case(
            "validValues duplicated",
            withMemoryPolicy(new RequestPolicy.Values(GIB, List.of(GIB, GIB))),
            "validValues lists 1073741824 twice"),
        new Case(
            "valid value above the capacity",
            withMemoryPolicy(new RequestPolicy.Values(GIB, List.of(GIB, 11 * GIB))),
            "valid value 11811160064 is above the capacity's value 10737418240"),
        new Case(
            "validRange default below min",
            withMemoryPolicy(range(GIB, 2 * GIB, null, null)),
            "default 1073741824 is below validRange min 2147483648"),
        new Case(
            "validRange min above the capacity",
            withMemoryPolicy(range(11 * GIB, 11 * GIB, null, null)),
            "validRange min 11811160064 is above the capacity's value"),
        new Case(
            "validRange max below min",
            withMemoryPolicy(range(2 * GIB, 2 * GIB, GIB, null)),
            "validRange max 1073741824 is below min 2147483648"),
        new Case(
            "validRange max above the capacity",
            withMemoryPolicy(range(GIB, GIB, 20 * GIB, null)),
            "validRange max 21474836480 is above the capacity's value"),
        new Case(
            "validRange default above max",
            withMemoryPolicy(range(3 * GIB, GIB, 2 * GIB, null)),
            "default 3221225472 is above validRange max 2147483648"),
        new Case(
            "validRange step zero",
            withMemoryPolicy(range(GIB, GIB, null, 0L)),
            "validRange step 0 is not positive"),
        new Case(
            "validRange min + step above the capacity",
            withMemoryPolicy(range(GIB, GIB, null, 10 * GIB)),
            "validRange min + step (1073741824 + 10737418240) is above the capacity's value"),
        new Case(
            "validRange default off the step",
            withMemoryPolicy(range(GIB + 1, GIB, null, 256 * ToyPool.MIB)),
            "default 1073741825 is not a multiple of a given step (268435456) from (1073741824)"),
        new Case(
            "validRange max off the step",
            withMemoryPolicy(range(GIB, GIB, 2 * GIB + 1, 256 * ToyPool.MIB)),
            "validRange max 2147483649 is not a multiple of a given step"),
        new Case(
            "a twin with more than 32 attributes and capacities",
            withTwin(withAttributes(ToyPool.mig(0, "1g", 0, 1), 29)),
            "device gpu-0-mig-1g-0-shared has 33 attributes and capacities, the API allows 32"),
        new Case(
            "incomplete generation",
            ToyPool.pool(2, 3).subList(0, 2),
            "generation 3 is incomplete: resourceSliceCount 3 but 2 slices published"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void refusesEveryRuleWithASentenceNamingIt(Case c) {
    assertThat(PoolValidator.problems(c.slices()))
        .anySatisfy(p -> assertThat(p).contains(c.problem()));
    assertThatThrownBy(() -> PoolValidator.requireValid(c.slices()))
        .isInstanceOf(InvalidPoolException.class)
        .hasMessageContaining(c.problem());
  }

  @Test
  void acceptsAWellFormedPool() {
    var taintedPool =
        withDevice(
            d ->
                ToyPool.tainted(
                    d, new Taint("gpu.nvidia.com/gpu-lost", "", Taint.Effect.NO_SCHEDULE)));

    assertThat(PoolValidator.problems(ToyPool.pool(8, 1))).isEmpty();
    assertThat(PoolValidator.problems(ToyPool.sharedPool(4, 1))).isEmpty();
    assertThat(
            PoolValidator.problems(
                withMemoryPolicy(new RequestPolicy.Values(GIB, List.of(GIB, 2 * GIB, 10 * GIB)))))
        .isEmpty();
    assertThat(PoolValidator.problems(withMemoryPolicy(range(10 * GIB, GIB, 10 * GIB, GIB))))
        .as("min + step, max and default may equal the value")
        .isEmpty();
    assertThat(PoolValidator.problems(taintedPool)).isEmpty();
    assertThat(
            PoolValidator.problems(
                ToyPool.publish(
                    List.of(
                        counters(0, List.of(ToyPool.counterSet(0))),
                        devices(1, copies(ToyPool.mig(0, "1g", 0, 1), 64))),
                    1)))
        .as("64 devices is the limit, not past it")
        .isEmpty();
  }

  @Test
  void judgesPoolRulesOnTheHighestGenerationOnly() {
    var stale = ToyPool.pool(2, 1).subList(0, 2);
    var current = ToyPool.pool(1, 2);
    var both = Stream.concat(stale.stream(), current.stream()).toList();

    assertThat(PoolValidator.problems(both)).isEmpty();
    assertThat(PoolValidator.requireValid(both).values()).containsExactly(current);
  }

  private static RequestPolicy.Range range(long byDefault, long min, Long max, Long step) {
    return new RequestPolicy.Range(
        byDefault,
        min,
        max == null ? OptionalLong.empty() : OptionalLong.of(max),
        step == null ? OptionalLong.empty() : OptionalLong.of(step));
  }

  /** The one-GPU pool with the twin of its first device (a 1g of 10 GiB) added. */
  private static List<PublishedSlice> withTwin(PoolDevice twinOf) {
    var devices = new ArrayList<>(ToyPool.gpu(0));
    devices.add(ToyPool.twin(twinOf));
    return ToyPool.publish(
        List.of(counters(0, List.of(ToyPool.counterSet(0))), devices(1, devices)), 1);
  }

  /**
   * The one-GPU pool with a twin of its first 1g whose only capacity is memory, with these
   * policies.
   */
  private static List<PublishedSlice> withTwin(Map<String, RequestPolicy> policies) {
    var devices = new ArrayList<>(ToyPool.gpu(0));
    var first = devices.getFirst();
    devices.add(ToyPool.twin(first, Map.of("memory", first.capacity().get("memory")), policies));
    return ToyPool.publish(
        List.of(counters(0, List.of(ToyPool.counterSet(0))), devices(1, devices)), 1);
  }

  private static List<PublishedSlice> withMemoryPolicy(RequestPolicy policy) {
    return withTwin(Map.of("memory", policy));
  }

  private static List<PublishedSlice> retarget(String driver, String pool) {
    return ToyPool.pool(1, 1).stream()
        .map(s -> new PublishedSlice(driver, pool, s.slice(), s.generation(), s.sliceCount()))
        .toList();
  }

  /** The one-GPU pool with its first device changed. */
  private static List<PublishedSlice> withDevice(UnaryOperator<PoolDevice> change) {
    var devices = new ArrayList<>(ToyPool.gpu(0));
    devices.set(0, change.apply(devices.getFirst()));
    return ToyPool.publish(
        List.of(counters(0, List.of(ToyPool.counterSet(0))), devices(1, devices)), 1);
  }

  private static PoolSlice counters(int index, List<CounterSet> sets) {
    return new PoolSlice(ToyPool.sliceName(index), new PoolSlice.Counters(sets));
  }

  private static PoolSlice devices(int index, List<PoolDevice> devices) {
    return new PoolSlice(ToyPool.sliceName(index), new PoolSlice.Devices(new GpuIndex(0), devices));
  }

  private static List<PoolDevice> copies(PoolDevice device, int count) {
    return IntStream.range(0, count).mapToObj(i -> renamed(device, "dev-" + i)).toList();
  }

  private static CounterSet bigSet(int counters) {
    var values = new LinkedHashMap<String, Long>();
    for (int i = 0; i < counters; i++) {
      values.put("memory-slice-" + i, 1L);
    }
    return new CounterSet(ToyPool.counterSetName(0), values);
  }

  private static PoolDevice renamed(PoolDevice d, String name) {
    return new PoolDevice(name, d.attributes(), d.capacity(), d.consumes(), d.taints(), d.origin());
  }

  private static PoolDevice consuming(PoolDevice d, List<CounterConsumption> consumes) {
    return new PoolDevice(d.name(), d.attributes(), d.capacity(), consumes, d.taints(), d.origin());
  }

  private static PoolDevice withAttribute(PoolDevice d, String name, Attribute value) {
    var attributes = new TreeMap<>(d.attributes());
    attributes.put(name, value);
    return new PoolDevice(d.name(), attributes, d.capacity(), d.consumes(), d.taints(), d.origin());
  }

  private static PoolDevice withAttributes(PoolDevice d, int extra) {
    var attributes = new TreeMap<>(d.attributes());
    for (int i = 0; i < extra; i++) {
      attributes.put("extra" + i, new Attribute.Int(i));
    }
    return new PoolDevice(d.name(), attributes, d.capacity(), d.consumes(), d.taints(), d.origin());
  }
}
