package io.migd.node.dra;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.pool.PoolContent;
import io.migd.pool.Taint;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The API server slow or failing: the publisher's client reaches the mock API server (CRUD mode)
 * through WireMock, which proxies every request and delays or fails the slice requests while a test
 * says so.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ResourceSlicePublisherFaultIT {
  static final String NODE = ResourceSlicePublisherIT.NODE;
  static final String SLICE_PATH = "/apis/resource.k8s.io/v1/resourceslices.*";

  KubernetesMockServer server;
  KubernetesClient client;
  private WireMockServer wireMock;
  private KubernetesClient publisherClient;
  private ResourceSlicePublisher publisher;

  @BeforeEach
  void start() {
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
        .create();
    wireMock = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    wireMock.start();
    wireMock.stubFor(
        any(anyUrl())
            .atPriority(10)
            .willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + server.getPort())));
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("http://127.0.0.1:" + wireMock.port())
            .withHttp2Disable(true)
            .withRequestRetryBackoffLimit(0)
            .build();
    publisherClient = new KubernetesClientBuilder().withConfig(config).build();
    publisher = ResourceSlicePublisher.start(publisherClient, NODE, ResourceSlicePublisherIT.FAST);
  }

  @AfterEach
  void stop() {
    publisher.close();
    publisherClient.close();
    wireMock.stop();
  }

  private int sliceWrites() {
    return wireMock
            .countRequestsMatching(postRequestedFor(urlPathMatching(SLICE_PATH)).build())
            .getCount()
        + wireMock
            .countRequestsMatching(putRequestedFor(urlPathMatching(SLICE_PATH)).build())
            .getCount();
  }

  private static PoolContent taintedWith(String xid) {
    Taint taint = new Taint("gpu.nvidia.com/xid", xid, Taint.Effect.NO_SCHEDULE);
    return TestPools.dynamicNode(NODE, 2, Map.of(0, taint, 1, taint));
  }

  @Test
  void publishesTheNewestContentWithFewerWritesThanPublishesWhileTheApiServerIsSlow() {
    wireMock.stubFor(
        any(urlPathMatching(SLICE_PATH))
            .atPriority(1)
            .willReturn(
                aResponse()
                    .proxiedFrom("http://127.0.0.1:" + server.getPort())
                    .withFixedDelay(200)));
    PoolContent last = null;
    for (int i = 1; i <= 30; i++) {
      last = taintedWith(Integer.toString(i));
      publisher.publish(last);
    }

    PoolContent newest = last;
    await()
        .atMost(ResourceSlicePublisherIT.WAIT)
        .until(publisher::published, Optional.of(newest)::equals);
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValueSatisfying(pool -> assertThat(pool.content()).isEqualTo(newest));
    // every publish writes both GPUs' slices (two changed: the next generation, three writes)
    assertThat(sliceWrites()).isLessThan(30);
  }

  @ParameterizedTest(name = "HTTP {0}")
  @ValueSource(ints = {500, 429, 409})
  void retriesAFailedPublishWithTheNewestContent(int status) {
    var failure = aResponse().withStatus(status).withBody("{\"kind\":\"Status\"}");
    StubMapping failingCreate =
        wireMock.stubFor(
            WireMock.post(urlPathMatching(SLICE_PATH)).atPriority(1).willReturn(failure));
    StubMapping failingUpdate =
        wireMock.stubFor(
            WireMock.put(urlPathMatching(SLICE_PATH)).atPriority(1).willReturn(failure));
    publisher.publish(taintedWith("1"));
    await().atMost(ResourceSlicePublisherIT.WAIT).until(() -> sliceWrites() >= 2);
    assertThat(publisher.published()).isEmpty();
    assertThat(publisher.failure())
        .hasValueSatisfying(
            f -> assertThat(f).startsWith("creating slice " + TestPools.sliceName(0, NODE)));
    PoolContent newest = taintedWith("2");
    publisher.publish(newest);

    wireMock.removeStub(failingCreate);
    wireMock.removeStub(failingUpdate);

    await()
        .atMost(ResourceSlicePublisherIT.WAIT)
        .until(publisher::published, Optional.of(newest)::equals);
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValueSatisfying(pool -> assertThat(pool.content()).isEqualTo(newest));
    assertThat(publisher.failure()).isEmpty();
  }

  @Test
  void writesOverASliceAnotherWriterChangedAfterAConflict() {
    PoolContent first = TestPools.dynamicNode(NODE, 2);
    ResourceSlicePublisherIT.publishAndAwait(publisher, first);
    String name = TestPools.sliceName(2, NODE);
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();
    ResourceSlice theirs =
        new ResourceSliceBuilder(slices.withName(name).get())
            .editSpec()
            .editFirstDevice()
            .withName("gpu-1-someone-elses")
            .endDevice()
            .endSpec()
            .build();
    slices.resource(theirs).update();

    PoolContent tainted =
        TestPools.dynamicNode(
            NODE, 2, Map.of(1, new Taint("gpu.nvidia.com/gpu-lost", "", Taint.Effect.NO_SCHEDULE)));
    ResourceSlicePublisherIT.publishAndAwait(publisher, tainted);

    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(1, 3, tainted));
  }
}
