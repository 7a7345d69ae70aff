package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.api.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.migd.api.deviceplugin.v1beta1.Device;
import io.migd.api.deviceplugin.v1beta1.NUMANode;
import io.migd.api.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.migd.devices.MigStrategy;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NUMA topology as the kubelet's Topology Manager sees it (DESIGN.md section 13): GPUs on two NUMA
 * nodes and one whose node sysfs does not give; each device of ListAndWatch (whole GPUs, MIG
 * slices, replicas) carries its GPU's node, and GetPreferredAllocation keeps a request on one node.
 */
class NumaTopologyIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String GPU = "nvidia.com/gpu";
  private static final String MIG_3G = "nvidia.com/mig-3g.20gb";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        numa:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 2}
            sharing: {"3g.20gb": {time-slicing: {replicas: 2}}}
          - devices: [1, 2, 3, 4]
            mig-enabled: false
            time-slicing: {replicas: 2}
      """;

  private SimulatedKubeletNode node;

  @BeforeEach
  void start() {
    node = SimulatedKubeletNode.start("A100-SXM4-40GB,T4,T4,T4,T4", CONFIGS, MigStrategy.MIXED);
    node.numaNode(0, "1");
    node.numaNode(1, "0");
    node.numaNode(2, "0");
    node.numaNode(3, "1");
    node.numaNode(4, "-1");
    assertThat(node.apply("numa").succeeded()).isTrue();
    await().atMost(WAIT).until(() -> node.kubelet.ids(GPU).size() == 8);
    await().atMost(WAIT).until(() -> node.kubelet.ids(MIG_3G).size() == 4);
  }

  @AfterEach
  void stop() throws Exception {
    node.close();
  }

  private String uuid(int gpu) {
    return node.gpu(gpu).uuid();
  }

  /** The NUMA nodes each listed device of a resource carries, by device ID. */
  private Map<String, List<Long>> topology(String resource) {
    var nodes = new HashMap<String, List<Long>>();
    for (Device d : node.kubelet.latest(resource).orElseThrow().getDevicesList()) {
      nodes.put(d.getID(), d.getTopology().getNodesList().stream().map(NUMANode::getID).toList());
    }
    return nodes;
  }

  private List<String> preferred(List<String> mustInclude, int size) {
    var request =
        ContainerPreferredAllocationRequest.newBuilder()
            .addAllAvailableDeviceIDs(node.kubelet.ids(GPU))
            .addAllMustIncludeDeviceIDs(mustInclude)
            .setAllocationSize(size);
    return node.kubelet
        .plugin(GPU)
        .getPreferredAllocation(
            PreferredAllocationRequest.newBuilder().addContainerRequests(request).build())
        .getContainerResponses(0)
        .getDeviceIDsList();
  }

  private Set<String> parents(List<String> ids) {
    return ids.stream().map(id -> id.substring(0, id.indexOf("::"))).collect(Collectors.toSet());
  }

  @Test
  void everyDeviceCarriesItsGpusNumaNodeAndNoneWhereSysfsGivesNone() {
    var gpus = topology(GPU);
    var slices = topology(MIG_3G);

    for (int n = 0; n < 2; n++) {
      assertThat(gpus).containsEntry(uuid(1) + "::" + n, List.of(0L));
      assertThat(gpus).containsEntry(uuid(2) + "::" + n, List.of(0L));
      assertThat(gpus).containsEntry(uuid(3) + "::" + n, List.of(1L));
      assertThat(gpus).containsEntry(uuid(4) + "::" + n, List.of());
    }
    assertThat(node.kubelet.latest(GPU).orElseThrow().getDevicesList())
        .filteredOn(d -> d.getID().startsWith(uuid(4)))
        .noneMatch(Device::hasTopology);
    assertThat(slices).hasSize(4).allSatisfy((id, numa) -> assertThat(numa).containsExactly(1L));
  }

  @Test
  void preferredAllocationSpreadsOverTheGpusOfTheNodeWithMostRoom() {
    List<String> chosen = preferred(List.of(), 3);

    assertThat(chosen).hasSize(3);
    assertThat(parents(chosen)).containsExactlyInAnyOrder(uuid(1), uuid(2));
  }

  @Test
  void preferredAllocationStaysOnTheNodeOfTheMustIncludeDevices() {
    List<String> chosen = preferred(List.of(uuid(3) + "::0"), 2);

    assertThat(chosen).containsExactlyInAnyOrder(uuid(3) + "::0", uuid(3) + "::1");
  }

  @Test
  void preferredAllocationCrossesNodesOnlyWhenNoNodeHoldsTheRequest() {
    List<String> chosen = preferred(List.of(), 5);

    assertThat(chosen)
        .hasSize(5)
        .containsAll(List.of(uuid(1) + "::0", uuid(1) + "::1", uuid(2) + "::0", uuid(2) + "::1"))
        .doesNotContain(uuid(4) + "::0", uuid(4) + "::1");
    assertThat(parents(chosen)).contains(uuid(3));
  }
}
