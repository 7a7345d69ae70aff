package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

/** Pods and claims read from the mock API server (CRUD mode), as the allocation info needs them. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesPodSourceIT {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void findsTheContainersOfAPodThatUseAClaimMadeFromATemplate() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("ml")
            .withName("job")
            .endMetadata()
            .withNewSpec()
            .addNewResourceClaim()
            .withName("gpu")
            .withResourceClaimTemplateName("one-slice")
            .endResourceClaim()
            .addNewInitContainer()
            .withName("warmup")
            .withNewResources()
            .addNewClaim()
            .withName("gpu")
            .endClaim()
            .endResources()
            .endInitContainer()
            .addNewContainer()
            .withName("trainer")
            .withNewResources()
            .addNewClaim()
            .withName("gpu")
            .endClaim()
            .endResources()
            .endContainer()
            .addNewContainer()
            .withName("logger")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .addNewResourceClaimStatus()
            .withName("gpu")
            .withResourceClaimName("job-gpu-x7k2")
            .endResourceClaimStatus()
            .endStatus()
            .build();
    client.pods().inNamespace("ml").resource(pod).create();

    var read = new KubernetesPodSource(client).pod("ml", "job");

    assertThat(read)
        .hasValueSatisfying(
            p -> {
              assertThat(p.containersUsing("job-gpu-x7k2")).containsExactly("warmup", "trainer");
              assertThat(p.containersUsing("another")).isEmpty();
            });
    assertThat(new KubernetesPodSource(client).pod("ml", "absent")).isEmpty();
  }

  @Test
  void readsTheDeviceClassOfEachRequestAndSubrequest() {
    var claim =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace("ml")
            .withName("train")
            .endMetadata()
            .withNewSpec()
            .withNewDevices()
            .addNewRequest()
            .withName("whole")
            .withNewExactly()
            .withDeviceClassName("gpu.nvidia.com")
            .endExactly()
            .endRequest()
            .addNewRequest()
            .withName("slice")
            .addNewFirstAvailable()
            .withName("small")
            .withDeviceClassName("mig.nvidia.com")
            .endFirstAvailable()
            .endRequest()
            .endDevices()
            .endSpec()
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .addNewResult()
            .withRequest("whole")
            .withDriver(TestPools.DRIVER)
            .withPool("n")
            .withDevice("gpu-1")
            .endResult()
            .addNewResult()
            .withRequest("slice/small")
            .withDriver(TestPools.DRIVER)
            .withPool("n")
            .withDevice("gpu-0-mig-1g5gb-19-3")
            .endResult()
            .endDevices()
            .endAllocation()
            .endStatus()
            .build();

    var read = KubernetesClaimSource.allocatedClaim(claim);

    assertThat(read.results())
        .extracting(r -> r.deviceClass())
        .containsExactly("gpu.nvidia.com", "mig.nvidia.com");
  }
}
