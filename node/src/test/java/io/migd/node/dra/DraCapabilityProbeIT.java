package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kubernetes version rules of DESIGN section 12, against the mock API server (CRUD mode, which
 * keeps whatever is written), its {@code /version} answered per test, and the read-back of a probe
 * slice answered without the part an API server with the feature gate off drops.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class DraCapabilityProbeIT {
  static final String NODE = "gpu-node-3";
  static final String SLICES = "/apis/resource.k8s.io/v1/resourceslices/";

  KubernetesMockServer server;
  KubernetesClient client;

  @BeforeEach
  void node() {
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
        .create();
  }

  private void version(String minor) {
    server.setVersionInfo(
        new VersionInfo.Builder()
            .withMajor("1")
            .withMinor(minor)
            .withGitVersion("v1." + minor)
            .build());
  }

  /**
   * The API server answers {@code /version} with {@code gitVersion}, this node's kubelet is {@code
   * kubelet}.
   */
  private void versions(String gitVersion, String kubelet) {
    var parts = gitVersion.substring(1).split("\\.");
    server.setVersionInfo(
        new VersionInfo.Builder()
            .withMajor(parts[0])
            .withMinor(parts[1])
            .withGitVersion(gitVersion)
            .build());
    client
        .nodes()
        .withName(NODE)
        .edit(
            n ->
                new NodeBuilder(n)
                    .withNewStatus()
                    .withNewNodeInfo()
                    .withKubeletVersion(kubelet)
                    .endNodeInfo()
                    .endStatus()
                    .build());
  }

  /** The API server drops {@code part} of the probe slice: its read-back lacks it. */
  private void drops(String part) {
    String name = "probe-" + part + "-" + TestPools.DRIVER + "-" + NODE;
    server
        .expect()
        .get()
        .withPath(SLICES + name)
        .andReturn(
            200,
            new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withDriver(TestPools.DRIVER)
                .withNodeName(NODE)
                .withNewPool()
                .withName(NODE + "/migd-probe")
                .withGeneration(0L)
                .withResourceSliceCount(2L)
                .endPool()
                .endSpec()
                .build())
        .always();
  }

  private DraCapabilities probe(boolean partitionable) {
    return new DraCapabilityProbe(client, TestPools.DRIVER, NODE).probe(partitionable);
  }

  @ParameterizedTest(name = "1.{0} partitionable={1}: dynamic={2}")
  @CsvSource({
    "34, true, false",
    "35, false, false",
    "35, true, true",
    "36, false, true",
    "36+, false, true",
    "37, true, true",
  })
  void publishesDynamicDevicesFromTheVersionsThatScheduleThem(
      String minor, boolean partitionable, boolean dynamic) {
    version(minor);

    DraCapabilities capabilities = probe(partitionable);

    assertThat(capabilities.dynamicDevices()).isEqualTo(dynamic);
    assertThat(capabilities.deviceTaints()).isTrue();
    assertThat(capabilities.why()).contains("Kubernetes 1." + minor.replace("+", ""));
    assertThat(client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems())
        .as("the probe slices are deleted again")
        .isEmpty();
  }

  @Test
  void keepsEveryGpuStaticOn135WhenTheCountersDoNotReadBack() {
    version("35");
    drops("counters");

    DraCapabilities capabilities = probe(true);

    assertThat(capabilities.dynamicDevices()).isFalse();
    assertThat(capabilities.why()).contains("dropped the shared counters");
  }

  @Test
  void saysWhenDeviceTaintsAreDropped() {
    version("35");
    drops("taints");

    DraCapabilities capabilities = probe(false);

    assertThat(capabilities.deviceTaints()).isFalse();
    assertThat(capabilities.why()).contains("unhealthy device is left out of its slice");
  }

  /**
   * An API server that fails for a moment at start (its version, then the probe slice's write) is
   * probed again in the background; a failing write is not taken for dropped device taints. Found
   * by the DRA chaos run: migd started during a 6 s outage exited 70 ("internal error"). A 429 Too
   * Many Requests is the same "not now", never a refusal (issue 29).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {500, 429})
  void probesAnApiServerThatFailsAtStartAgainInTheBackground(int code) {
    String status = "{\"kind\":\"Status\",\"code\":" + code + "}";
    server.expect().get().withPath("/version").andReturn(code, status).times(3);
    server
        .expect()
        .post()
        .withPath("/apis/resource.k8s.io/v1/resourceslices")
        .andReturn(code, status)
        .times(3);
    version("36");
    // as migd's client: one retry of a failed request
    var once =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(client.getConfiguration())
                    .withRequestRetryBackoffLimit(1)
                    .withRequestRetryBackoffInterval(10)
                    .build())
            .build();
    var probe = new DraCapabilityProbe(once, TestPools.DRIVER, NODE);
    assertThatThrownBy(() -> probe.probe(false))
        .isInstanceOf(DraCapabilityProbe.UnansweredException.class);

    try (var probed =
        ProbedCapabilities.start(
            () -> probe.probe(false),
            new ProbedCapabilities.Settings(
                Duration.ofMillis(1),
                new Backoff(Duration.ofMillis(10), Duration.ofMillis(100)),
                Duration.ofMinutes(1)))) {
      DraCapabilities capabilities =
          await().atMost(Duration.ofSeconds(60)).until(probed::known, Optional::isPresent).get();

      assertThat(capabilities.dynamicDevices()).isTrue();
      assertThat(capabilities.deviceTaints()).isTrue();
    }
  }

  @Test
  void publishesSharesFromKubernetes1362WithAKubelet136AndATwinReadBack() {
    versions("v1.36.2", "v1.36.0");

    assertThat(new DraCapabilityProbe(client, TestPools.DRIVER, NODE).probe(false, true).shares())
        .isTrue();
    assertThat(client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems())
        .as("the probe slices are deleted again")
        .isEmpty();
    assertThat(probe(false).shares()).as("without migd.dra.shares").isFalse();
  }

  @ParameterizedTest(name = "kube-apiserver {0}, kubelet {1}")
  @CsvSource({
    "v1.36.1, v1.36.1",
    "v1.35.9, v1.35.9",
    "v1.37.0, v1.35.4",
    "v1.36.2, ''",
  })
  void keepsSharesOffBelowTheVersionsThatCountThem(String apiServer, String kubelet) {
    versions(apiServer, kubelet);

    assertThat(new DraCapabilityProbe(client, TestPools.DRIVER, NODE).probe(false, true).shares())
        .isFalse();
  }

  @Test
  void keepsSharesOffWhenTheProbeTwinLosesItsFields() {
    versions("v1.36.2", "v1.36.2");
    drops("shares");

    DraCapabilities capabilities =
        new DraCapabilityProbe(client, TestPools.DRIVER, NODE).probe(false, true);

    assertThat(capabilities.shares()).isFalse();
    assertThat(capabilities.dynamicDevices()).isTrue();
  }

  @Test
  void refusesKubernetesBefore134() {
    version("33");

    assertThatThrownBy(() -> probe(true))
        .isInstanceOf(UnsupportedKubernetesException.class)
        .hasMessageContaining("1.34 or later")
        .hasMessageContaining("Kubernetes 1.33");
  }
}
