package io.migd.kubelet;

import static io.migd.kubelet.SampleNode.GPU;
import static io.migd.kubelet.SampleNode.GPU_X;
import static io.migd.kubelet.SampleNode.GPU_Y;
import static io.migd.kubelet.SampleNode.MIG_1G;
import static io.migd.kubelet.SampleNode.MIG_A;
import static io.migd.kubelet.SampleNode.MIG_B;
import static io.migd.kubelet.SampleNode.MIG_BIG;
import static io.migd.kubelet.SampleNode.MIG_C;
import static io.migd.kubelet.SampleNode.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.api.deviceplugin.v1beta1.CDIDevice;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerRequest;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerResponse;
import io.migd.api.deviceplugin.v1beta1.PreferredAllocationRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the kubelet gets from Allocate and GetPreferredAllocation, over real unix sockets. */
class DevicePluginServiceIT {
  static final Duration WITHIN = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<List<String>> heard = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (var c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void allocatesMigSlicesWithEachParentOnceAndTellsTheListener() {
    var kubelet = kubelet();
    var plugins = plugins(true);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(MIG_1G));

    AllocateResponse answer =
        kubelet.plugin(MIG_1G).allocate(request(List.of(MIG_B, MIG_A), List.of(MIG_C)));

    assertThat(answer.getContainerResponsesList()).hasSize(2);
    assertThat(answer.getContainerResponses(0).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", MIG_B + "," + MIG_A));
    assertThat(answer.getContainerResponses(0).getCdiDevicesList())
        .extracting(CDIDevice::getName)
        .containsExactly("k8s.migd.io/gpu=" + MIG_B, "k8s.migd.io/gpu=" + MIG_A);
    assertThat(answer.getContainerResponses(1).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", MIG_C));
    assertThat(heard).containsExactly(List.of(MIG_1G, MIG_B, MIG_A), List.of(MIG_1G, MIG_C));
  }

  @Test
  void allocatesReplicasAsTheirGpusWithoutCdiNamesWhenCdiIsOff() {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(GPU));

    AllocateResponse answer =
        kubelet.plugin(GPU).allocate(request(List.of(GPU_Y + "::1", GPU_X + "::0", GPU_Y + "::0")));

    assertThat(answer.getContainerResponses(0).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", GPU_Y + "," + GPU_X));
    assertThat(answer.getContainerResponses(0).getCdiDevicesList()).isEmpty();
    assertThat(heard).containsExactly(List.of(GPU, GPU_Y + "::1", GPU_X + "::0", GPU_Y + "::0"));
  }

  @Test
  void refusesAnAllocationOfADeviceNotAdvertisedUnderTheResource() {
    var kubelet = kubelet();
    var plugins = plugins(true);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(MIG_1G));

    assertThatThrownBy(
            () -> kubelet.plugin(MIG_1G).allocate(request(List.of(MIG_A), List.of(MIG_BIG))))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("device \"" + MIG_BIG + "\" is not advertised under " + MIG_1G);
            });
    assertThat(heard).isEmpty();
  }

  @Test
  void prefersReplicasSpreadOverGpus() {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(GPU));
    var all = List.of(GPU_X + "::0", GPU_X + "::1", GPU_Y + "::0", GPU_Y + "::1");

    var answer =
        kubelet
            .plugin(GPU)
            .getPreferredAllocation(
                PreferredAllocationRequest.newBuilder()
                    .addContainerRequests(
                        ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(all)
                            .setAllocationSize(2))
                    .addContainerRequests(
                        ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(all)
                            .addMustIncludeDeviceIDs(GPU_Y + "::1")
                            .setAllocationSize(2))
                    .build());

    assertThat(answer.getContainerResponses(0).getDeviceIDsList())
        .containsExactly(GPU_X + "::0", GPU_Y + "::0");
    assertThat(answer.getContainerResponses(1).getDeviceIDsList())
        .containsExactly(GPU_Y + "::1", GPU_X + "::0");
    assertThat(
            kubelet
                .plugin(GPU)
                .preStartContainer(
                    PreStartContainerRequest.newBuilder().addDevicesIds(all.get(0)).build()))
        .isEqualTo(PreStartContainerResponse.getDefaultInstance());
  }

  private FakeKubelet kubelet() {
    var kubelet = FakeKubelet.start(dir);
    open.add(kubelet);
    return kubelet;
  }

  private DevicePlugins plugins(boolean cdi) {
    var plugins =
        new DevicePlugins(
            new DevicePluginSettings(dir, cdi, Duration.ofMillis(400)),
            (resource, ids) -> {
              var entry = new ArrayList<String>();
              entry.add(resource);
              entry.addAll(ids);
              heard.add(entry);
            });
    open.add(plugins);
    return plugins;
  }

  @SafeVarargs
  static AllocateRequest request(List<String>... containers) {
    var request = AllocateRequest.newBuilder();
    for (var ids : containers) {
      request.addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(ids));
    }
    return request.build();
  }
}
