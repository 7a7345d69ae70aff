package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.devices.MigStrategy;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.Sharing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The sharing labels of section 11, from what the device plugin advertises. */
class SharingLabelsTest {
  private static final ObservedNode NO_GPUS = new ObservedNode(List.of());

  private static List<Device> shared(String parent, int gpu, int gi, Sharing sharing) {
    var devices = new ArrayList<Device>();
    for (int n = 0; n < sharing.replicas(); n++) {
      devices.add(new Device(parent + "::" + n, parent, new GpuIndex(gpu), gi, 0, true, sharing));
    }
    return devices;
  }

  private static Device whole(String uuid, int gpu) {
    return new Device(
        uuid, uuid, new GpuIndex(gpu), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES, true);
  }

  private static Map<String, String> labels(Map<String, List<Device>> resources) {
    return CapacityLabels.of(
            NO_GPUS, new Inventory(new TreeMap<>(resources), List.of()), MigStrategy.MIXED)
        .labels();
  }

  @Test
  void sharedSlicesGetTheirProfileSharingAndCountsStayPhysical() {
    var small = new ArrayList<Device>();
    for (int i = 0; i < 4; i++) {
      small.addAll(shared("MIG-s" + i, 0, 7 + i, new Sharing.TimeSliced(3)));
    }
    var labels =
        labels(
            Map.of(
                "nvidia.com/mig-3g.20gb", shared("MIG-b", 0, 2, new Sharing.Mps(2)),
                "nvidia.com/mig-1g.5gb", small,
                "nvidia.com/mig-3g.40gb",
                    List.of(
                        new Device("MIG-h0", "MIG-h0", new GpuIndex(1), 1, 0, true),
                        new Device("MIG-h1", "MIG-h1", new GpuIndex(1), 2, 0, true)),
                "nvidia.com/gpu", shared("GPU-t4", 2, Usage.WHOLE_GPU, new Sharing.Mps(4))));

    assertThat(labels)
        .containsEntry("nvidia.com/mig-3g.20gb.count", "1")
        .containsEntry("nvidia.com/mig-3g.20gb.sharing-strategy", "mps")
        .containsEntry("nvidia.com/mig-3g.20gb.replicas", "2")
        .containsEntry("nvidia.com/mig-1g.5gb.count", "4")
        .containsEntry("nvidia.com/mig-1g.5gb.sharing-strategy", "time-slicing")
        .containsEntry("nvidia.com/mig-1g.5gb.replicas", "3")
        .containsEntry("nvidia.com/mig-3g.40gb.count", "2")
        .doesNotContainKey("nvidia.com/mig-3g.40gb.sharing-strategy")
        .doesNotContainKey("nvidia.com/mig-3g.40gb.replicas")
        .containsEntry(CapacityLabels.SHARING_STRATEGY, "mps")
        .containsEntry(CapacityLabels.REPLICAS, "4");
    assertThat(CapacityLabels.isCountLabel("nvidia.com/mig-1g.5gb.sharing-strategy")).isTrue();
    assertThat(CapacityLabels.isCountLabel("nvidia.com/mig-1g.5gb.replicas")).isTrue();
    assertThat(CapacityLabels.isCountLabel(CapacityLabels.REPLICAS)).isFalse();
  }

  @Test
  void wholeGpusSharedDifferentlyAreMixedAndUnsharedOnesAreNone() {
    var gpus = new ArrayList<Device>();
    gpus.addAll(shared("GPU-a", 0, Usage.WHOLE_GPU, new Sharing.Mps(2)));
    gpus.addAll(shared("GPU-b", 1, Usage.WHOLE_GPU, new Sharing.TimeSliced(6)));
    gpus.add(whole("GPU-c", 2));

    assertThat(labels(Map.of("nvidia.com/gpu", gpus)))
        .containsEntry(CapacityLabels.SHARING_STRATEGY, "mixed")
        .containsEntry(CapacityLabels.REPLICAS, "6");
    assertThat(labels(Map.of("nvidia.com/gpu", List.of(whole("GPU-c", 2)))))
        .containsEntry(CapacityLabels.SHARING_STRATEGY, "none")
        .containsEntry(CapacityLabels.REPLICAS, "1");
  }
}
