package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.migd.api.deviceplugin.v1beta1.Mount;
import io.migd.devices.MigStrategy;
import io.migd.reconcile.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sharing as the kubelet sees it (section 11 of the contract): time-sliced and MPS replicas of MIG
 * slices and of whole GPUs, and what {@code Allocate} returns for each kind.
 */
class SharingSurfaceIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NODE = "A100-SXM4-40GB,H100-SXM5-80GB,T4";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        shared:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
            sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
          - devices: [1]
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
          - devices: [2]
            mig-enabled: false
            mps: {replicas: 4}
        mps-small:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"1g.5gb": 7}
            sharing: {"1g.5gb": {mps: {replicas: 2}}}
      """;

  private SimulatedKubeletNode node;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  private void awaitIds(String resource, List<String> ids) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(node.kubelet.ids(resource)).containsExactlyInAnyOrderElementsOf(ids));
  }

  private static List<String> replicas(List<String> parents, int count) {
    var ids = new ArrayList<String>();
    parents.forEach(p -> IntStream.range(0, count).forEach(n -> ids.add(p + "::" + n)));
    return ids;
  }

  private static AllocateRequest request(String... ids) {
    return AllocateRequest.newBuilder()
        .addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(List.of(ids)))
        .build();
  }

  private ContainerAllocateResponse allocate(String resource, String... ids) {
    return node.kubelet.plugin(resource).allocate(request(ids)).getContainerResponses(0);
  }

  private static void assertSucceeded(Outcome outcome) {
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
  }

  @Test
  void advertisesTimeSlicedAndMpsReplicasOfSlicesAndGpusWithTheirEnvironmentAndMounts() {
    node = SimulatedKubeletNode.start(NODE, CONFIGS, MigStrategy.MIXED);
    assertSucceeded(node.apply("shared"));
    String big = node.migUuids(0, "3g.20gb").getFirst();
    List<String> small = node.migUuids(0, "1g.5gb");
    String t4 = node.gpu(2).uuid();

    awaitIds("nvidia.com/mig-3g.20gb", replicas(List.of(big), 2));
    awaitIds("nvidia.com/mig-1g.5gb", replicas(small, 3));
    awaitIds("nvidia.com/mig-3g.40gb", node.migUuids(1, "3g.40gb"));
    awaitIds("nvidia.com/gpu", replicas(List.of(t4), 4));
    assertThat(small).hasSize(4);
    assertThat(node.migUuids(1, "3g.40gb")).hasSize(2);
    assertThat(node.kubelet.registeredResources())
        .containsExactlyInAnyOrder(
            "nvidia.com/gpu",
            "nvidia.com/mig-3g.20gb",
            "nvidia.com/mig-1g.5gb",
            "nvidia.com/mig-3g.40gb");

    var mpsSlice = allocate("nvidia.com/mig-3g.20gb", big + "::1");
    String slicePipe = node.mps.root().resolve(big).resolve("pipe").toString();
    // the pipe at MPS's default path (unsetting the variable does not leave MPS), and the
    // daemon's own shm, never one shared by every daemon of the node
    assertThat(mpsSlice.getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", big)
        .containsEntry("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps");
    assertThat(mpsSlice.getMountsList())
        .extracting(Mount::getHostPath, Mount::getContainerPath)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(slicePipe, "/tmp/nvidia-mps"),
            org.assertj.core.groups.Tuple.tuple(
                node.mps.root().resolve(big).resolve("shm").toString(), "/dev/shm"));
    assertThat(mpsSlice.getCdiDevicesList())
        .extracting(d -> d.getName())
        .containsExactly("k8s.migd.io/gpu=" + big);

    var timeSliced = allocate("nvidia.com/mig-1g.5gb", small.get(2) + "::0", small.get(2) + "::2");
    assertThat(timeSliced.getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", small.get(2))
        .doesNotContainKey("CUDA_MPS_PIPE_DIRECTORY");
    assertThat(timeSliced.getMountsList()).isEmpty();

    var plain = allocate("nvidia.com/mig-3g.40gb", node.migUuids(1, "3g.40gb").getFirst());
    assertThat(plain.getEnvsMap()).doesNotContainKey("CUDA_MPS_PIPE_DIRECTORY");
    assertThat(plain.getMountsList()).isEmpty();

    var mpsGpu = allocate("nvidia.com/gpu", t4 + "::3");
    String gpuPipe = node.mps.root().resolve(t4).resolve("pipe").toString();
    assertThat(mpsGpu.getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", t4)
        .containsEntry("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps");
    assertThat(mpsGpu.getMountsList())
        .extracting(Mount::getHostPath, Mount::getContainerPath)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(gpuPipe, "/tmp/nvidia-mps"),
            org.assertj.core.groups.Tuple.tuple(
                node.mps.root().resolve(t4).resolve("shm").toString(), "/dev/shm"));
  }

  @Test
  void refusesMoreThanOneMpsReplicaForOneContainer() {
    node =
        SimulatedKubeletNode.start(
            "A100-SXM4-40GB,T4", CONFIGS.replace("[2]", "[1]"), MigStrategy.MIXED);
    assertSucceeded(node.apply("mps-small"));
    List<String> small = node.migUuids(0, "1g.5gb");
    awaitIds("nvidia.com/mig-1g.5gb", replicas(small, 2));

    assertThatThrownBy(
            () -> allocate("nvidia.com/mig-1g.5gb", small.get(0) + "::0", small.get(1) + "::0"))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains("2 MPS parents");
            });
    assertThatThrownBy(
            () -> allocate("nvidia.com/mig-1g.5gb", small.get(0) + "::0", small.get(0) + "::1"))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .contains("several replicas of " + small.get(0));
            });
    assertThat(allocate("nvidia.com/mig-1g.5gb", small.get(1) + "::1").getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", small.get(1));
  }
}
