package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.profiles.Sharing;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The preference policy of {@code GetPreferredAllocation} (DESIGN.md sections 4 and 13): one NUMA
 * node that holds the whole request, then spread over its GPUs and parents; nodes crossed only when
 * none holds it.
 */
class PreferredAllocationTest {
  private static final int UNKNOWN = Device.NO_NUMA_NODE;

  /** Two time-sliced replicas of each GPU: {@code g<index>::0} and {@code g<index>::1}. */
  private static List<Device> replicas(int... numaByGpu) {
    var devices = new ArrayList<Device>();
    for (int gpu = 0; gpu < numaByGpu.length; gpu++) {
      for (int n = 0; n < 2; n++) {
        devices.add(
            new Device(
                "g" + gpu + "::" + n,
                "g" + gpu,
                new GpuIndex(gpu),
                Usage.WHOLE_GPU,
                Usage.ALL_COMPUTE_INSTANCES,
                true,
                new Sharing.TimeSliced(2),
                numaByGpu[gpu]));
      }
    }
    return devices;
  }

  record Case(
      String name,
      List<Device> available,
      List<String> mustInclude,
      int size,
      List<String> chosen) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    // GPUs 0 and 1 on node 0, 2 on node 1, 3 on node 1, 4 unknown
    var twoNodes = replicas(0, 0, 1, 1, UNKNOWN);
    var unbalanced = replicas(0, 1, 1, 1);
    return Stream.of(
        new Case(
            "spreads over the GPUs of one node when it holds the request",
            twoNodes,
            List.of(),
            2,
            List.of("g0::0", "g1::0")),
        new Case(
            "picks the node with most available devices",
            unbalanced,
            List.of(),
            3,
            List.of("g1::0", "g2::0", "g3::0")),
        new Case(
            "stays on the node of the must-include devices",
            twoNodes,
            List.of("g3::1"),
            3,
            List.of("g3::1", "g2::0", "g2::1")),
        new Case(
            "a must-include device on a node too small crosses, that node first",
            unbalanced,
            List.of("g0::0"),
            3,
            List.of("g0::0", "g0::1", "g1::0")),
        new Case(
            "crosses nodes only when none holds the request, unknown nodes last",
            twoNodes,
            List.of(),
            6,
            List.of("g0::0", "g1::0", "g0::1", "g1::1", "g2::0", "g3::0")),
        new Case(
            "unknown nodes everywhere spread over every GPU as before",
            replicas(UNKNOWN, UNKNOWN, UNKNOWN),
            List.of(),
            3,
            List.of("g0::0", "g1::0", "g2::0")),
        new Case(
            "must-include devices on two nodes spread over the rest",
            twoNodes,
            List.of("g0::0", "g2::0"),
            4,
            List.of("g0::0", "g2::0", "g1::0", "g3::0")),
        new Case(
            "returns what is available when it runs out",
            replicas(0),
            List.of(),
            3,
            List.of("g0::0", "g0::1")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void choosesDevices(Case c) {
    assertThat(PreferredAllocation.choose(c.available(), c.mustInclude(), c.size()))
        .containsExactlyElementsOf(c.chosen());
  }
}
