package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.api.podresources.v1.ContainerDevices;
import io.migd.api.podresources.v1.ContainerResources;
import io.migd.api.podresources.v1.ListPodResourcesResponse;
import io.migd.api.podresources.v1.PodResources;
import io.migd.devices.PodAllocations;
import io.migd.devices.PodDevice;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PodResources client against a fake kubelet over a real unix socket. */
class PodResourcesClientIT {
  static final String MIG_A = "MIG-4b8c8d0a-0f0e-5a54-9f43-5a1b2c3d4e5f";
  static final String MIG_B = "MIG-9e2f1a3b-7c6d-5e4f-8a9b-0c1d2e3f4a5b";
  static final String REPLICA = "GPU-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0::1";

  @TempDir Path dir;

  @Test
  void listsOneDevicePerContainerResourceAndId() throws InterruptedException {
    var socket = dir.resolve("kubelet.sock");
    try (var kubelet = FakePodResources.start(socket);
        var client = new PodResourcesClient(socket)) {
      assertThat(client.list()).isEmpty();

      kubelet.answer(
          ListPodResourcesResponse.newBuilder()
              .addPodResources(
                  PodResources.newBuilder()
                      .setName("trainer-0")
                      .setNamespace("ml")
                      .addContainers(
                          ContainerResources.newBuilder()
                              .setName("main")
                              .addDevices(devices("nvidia.com/mig-1g.10gb", MIG_A, MIG_B))
                              .addDevices(devices("nvidia.com/gpu", REPLICA)))
                      .addContainers(
                          ContainerResources.newBuilder()
                              .setName("sidecar")
                              .addDevices(devices("example.com/fpga", "fpga-0"))))
              .addPodResources(
                  PodResources.newBuilder()
                      .setName("web")
                      .setNamespace("default")
                      .addContainers(ContainerResources.newBuilder().setName("nginx")))
              .build());

      assertThat(client.list())
          .containsExactly(
              new PodDevice("nvidia.com/mig-1g.10gb", MIG_A, "ml", "trainer-0", "main"),
              new PodDevice("nvidia.com/mig-1g.10gb", MIG_B, "ml", "trainer-0", "main"),
              new PodDevice("nvidia.com/gpu", REPLICA, "ml", "trainer-0", "main"),
              new PodDevice("example.com/fpga", "fpga-0", "ml", "trainer-0", "sidecar"));
    }
  }

  @Test
  void saysWhichSocketAndStatusWhenTheKubeletIsNotThere() throws InterruptedException {
    var socket = dir.resolve("pod-resources.sock");
    try (var client = new PodResourcesClient(socket)) {
      assertThatThrownBy(client::list)
          .isInstanceOf(PodAllocations.Unavailable.class)
          .hasMessageStartingWith("PodResources List at " + socket + " failed: UNAVAILABLE");
    }
  }

  private static ContainerDevices devices(String resource, String... ids) {
    return ContainerDevices.newBuilder()
        .setResourceName(resource)
        .addAllDeviceIds(List.of(ids))
        .build();
  }
}
