package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.migd.execute.Backoff;
import io.migd.pool.PoolContent;
import io.migd.pool.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pool published as ResourceSlices on the fabric8 mock API server (CRUD mode). */
@EnableKubernetesMockClient(crud = true, https = false)
class ResourceSlicePublisherIT {
  static final String NODE = "gpu-node-7";
  static final Duration WAIT = Duration.ofSeconds(30);
  static final PublishSettings FAST =
      new PublishSettings(1000, 1000, new Backoff(Duration.ofMillis(50), Duration.ofMillis(500)));
  static final Taint XID_79 = new Taint("gpu.nvidia.com/xid", "79", Taint.Effect.NO_SCHEDULE);

  KubernetesClient client;
  private ResourceSlicePublisher publisher;
  private String nodeUid;

  @BeforeEach
  void node() {
    nodeUid = createNode();
    publisher = ResourceSlicePublisher.start(client, NODE, FAST);
  }

  /** Creates the Node; its UID. */
  private String createNode() {
    return client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
        .create()
        .getMetadata()
        .getUid();
  }

  @AfterEach
  void stop() {
    publisher.close();
  }

  @Test
  void publishesEverySliceUnderTheFirstGeneration() {
    PoolContent content = TestPools.dynamicNode(NODE, 2, Map.of(1, XID_79));

    publishAndAwait(publisher, content);

    List<ResourceSlice> slices = slices();
    assertThat(slices)
        .extracting(s -> s.getMetadata().getName())
        .containsExactly(
            TestPools.sliceName(0, NODE),
            TestPools.sliceName(1, NODE),
            TestPools.sliceName(2, NODE));
    assertThat(slices)
        .allSatisfy(
            s -> {
              assertThat(s.getSpec().getDriver()).isEqualTo(TestPools.DRIVER);
              assertThat(s.getSpec().getNodeName()).isEqualTo(NODE);
              assertThat(s.getSpec().getPool().getName()).isEqualTo(NODE);
              assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1L);
              assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(3L);
              assertThat(s.getMetadata().getOwnerReferences())
                  .singleElement()
                  .satisfies(
                      o -> {
                        assertThat(o.getKind()).isEqualTo("Node");
                        assertThat(o.getName()).isEqualTo(NODE);
                        assertThat(o.getUid()).isEqualTo(nodeUid);
                      });
            });
    ResourceSlice counters = slices.getFirst();
    assertThat(counters.getSpec().getDevices()).isNullOrEmpty();
    assertThat(counters.getSpec().getSharedCounters())
        .extracting(c -> c.getName())
        .containsExactly("gpu-0-counter-set", "gpu-1-counter-set");
    var gpu1 = slices.get(2).getSpec().getDevices();
    assertThat(slices.get(2).getSpec().getSharedCounters()).isNullOrEmpty();
    assertThat(gpu1.getFirst().getName()).isEqualTo("gpu-1-mig-1g5gb-19-0");
    var attributes = gpu1.getFirst().getAttributes();
    assertThat(attributes.get("placementStart").getInt()).isZero();
    assertThat(attributes.get("migCapable").getBool()).isTrue();
    assertThat(attributes.get("profile").getString()).isEqualTo("1g.5gb");
    assertThat(attributes.get("driverVersion").getVersion()).isEqualTo("580.95.5");
    assertThat(attributes.get("resource.kubernetes.io/pciBusID").getString())
        .isEqualTo("0000:11:00.0");
    assertThat(gpu1.getFirst().getCapacity().get("memory").getValue().getNumericalAmount())
        .isEqualByComparingTo("5368709120");
    assertThat(gpu1.getFirst().getConsumesCounters())
        .singleElement()
        .satisfies(c -> assertThat(c.getCounterSet()).isEqualTo("gpu-1-counter-set"));
    assertThat(gpu1.getFirst().getTaints())
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.getKey()).isEqualTo("gpu.nvidia.com/xid");
              assertThat(t.getValue()).isEqualTo("79");
              assertThat(t.getEffect()).isEqualTo("NoSchedule");
              assertThat(Instant.parse(t.getTimeAdded())).isBefore(Instant.now().plusSeconds(1));
            });
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(1, 3, content));
  }

  @Test
  void updatesTheOneChangedSliceInPlaceUnderTheSameGeneration() {
    PoolContent first = TestPools.dynamicNode(NODE, 2);
    publishAndAwait(publisher, first);
    Map<String, String> versions = resourceVersions();

    PoolContent tainted = TestPools.dynamicNode(NODE, 2, Map.of(1, XID_79));
    publishAndAwait(publisher, tainted);

    List<ResourceSlice> slices = slices();
    assertThat(slices).allSatisfy(s -> assertThat(generation(s)).isEqualTo(1L));
    Map<String, String> after = resourceVersions();
    assertThat(after.get(TestPools.sliceName(0, NODE)))
        .isEqualTo(versions.get(TestPools.sliceName(0, NODE)));
    assertThat(after.get(TestPools.sliceName(1, NODE)))
        .isEqualTo(versions.get(TestPools.sliceName(1, NODE)));
    assertThat(after.get(TestPools.sliceName(2, NODE)))
        .isNotEqualTo(versions.get(TestPools.sliceName(2, NODE)));
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(1, 3, tainted));
  }

  @Test
  void writesEverySliceUnderTheNextGenerationWhenTwoChange() {
    publishAndAwait(publisher, TestPools.dynamicNode(NODE, 2));

    PoolContent bothTainted = TestPools.dynamicNode(NODE, 2, Map.of(0, XID_79, 1, XID_79));
    publishAndAwait(publisher, bothTainted);

    assertThat(slices())
        .hasSize(3)
        .allSatisfy(
            s -> {
              assertThat(generation(s)).isEqualTo(2L);
              assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(3L);
            });
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(2, 3, bothTainted));
  }

  @Test
  void shrinkingThePoolDeletesTheSliceNoLongerInIt() {
    publishAndAwait(publisher, TestPools.dynamicNode(NODE, 2));

    PoolContent one = TestPools.dynamicNode(NODE, 1);
    publishAndAwait(publisher, one);

    assertThat(slices())
        .extracting(s -> s.getMetadata().getName(), ResourceSlicePublisherIT::generation)
        .containsExactly(
            tuple(TestPools.sliceName(0, NODE), 2L), tuple(TestPools.sliceName(1, NODE), 2L));
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(2, 2, one));
  }

  @Test
  void publishesASixteenGpuNodeAsTwoCounterSlicesAndSixteenDeviceSlices() {
    PoolContent sixteen = TestPools.dynamicNode(NODE, 16);

    publishAndAwait(publisher, sixteen);

    List<ResourceSlice> slices = slices();
    assertThat(slices).hasSize(18);
    assertThat(slices.subList(0, 2))
        .allSatisfy(s -> assertThat(s.getSpec().getSharedCounters()).hasSize(8));
    assertThat(slices.subList(2, 18))
        .allSatisfy(
            s -> {
              assertThat(s.getSpec().getSharedCounters()).isNullOrEmpty();
              assertThat(s.getSpec().getDevices()).hasSize(10);
            });
    assertThat(slices.get(17).getSpec().getDevices().getLast().getName()).isEqualTo("gpu-15");
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValueSatisfying(
            pool -> {
              assertThat(pool.complete()).isTrue();
              assertThat(pool.content()).isEqualTo(sixteen);
            });
  }

  @Test
  void aRestartContinuesFromThePublishedGeneration() {
    publishAndAwait(publisher, TestPools.dynamicNode(NODE, 2));
    PoolContent second = TestPools.dynamicNode(NODE, 2, Map.of(0, XID_79, 1, XID_79));
    publishAndAwait(publisher, second);
    publisher.close();
    Map<String, String> versions = resourceVersions();

    publisher = ResourceSlicePublisher.start(client, NODE, FAST);
    publishAndAwait(publisher, second);
    assertThat(resourceVersions()).isEqualTo(versions);

    PoolContent third = TestPools.dynamicNode(NODE, 3);
    publishAndAwait(publisher, third);
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .hasValue(new PublishedPool(3, 4, third));
  }

  @Test
  void leavesOtherNodesSlicesAlone() {
    var other = ResourceSlicePublisher.start(client, "other-node", FAST);
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName("other-node").endMetadata().build())
        .create();
    try {
      publishAndAwait(other, TestPools.dynamicNode("other-node", 1));
      publishAndAwait(publisher, TestPools.dynamicNode(NODE, 1));
      publishAndAwait(publisher, PoolContent.empty(TestPools.DRIVER, NODE));
    } finally {
      other.close();
    }
    assertThat(client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems())
        .extracting(s -> s.getSpec().getNodeName())
        .containsOnly("other-node")
        .hasSize(2);
  }

  /**
   * Pools built on several threads reach the publisher in any order: one numbered older than the
   * newest handed over is dropped (issue 29). Before, the older pool was written over the newer
   * one, so the slices went back to a state already left (here: the resource versions change).
   */
  @Test
  void anOlderPoolHandedOverAfterANewerOneIsNeverWritten() throws InterruptedException {
    PoolContent newer = TestPools.dynamicNode(NODE, 2, Map.of(0, XID_79));
    publisher.publish(5, newer);
    assertThat(publisher.awaitPublished(5, WAIT)).isTrue();
    Map<String, String> versions = resourceVersions();

    publisher.publish(4, TestPools.dynamicNode(NODE, 2));
    publisher.publish(6, newer);

    assertThat(publisher.awaitPublished(6, WAIT)).isTrue();
    assertThat(publisher.published()).hasValue(newer);
    assertThat(resourceVersions()).isEqualTo(versions);
  }

  /**
   * The publisher reads the server again every reread: slices someone else deleted come back, and a
   * Node deleted and created again (a new UID) becomes their owner. Before, the publisher kept what
   * it had written in memory and never noticed either.
   */
  @Test
  void readsTheServerAgainSoDeletedSlicesComeBackOwnedByTheNodeAsItIsNow() {
    publisher.close();
    publisher =
        ResourceSlicePublisher.start(
            client,
            NODE,
            new PublishSettings(FAST.qps(), FAST.burst(), FAST.backoff(), Duration.ofMillis(100)));
    PoolContent content = TestPools.dynamicNode(NODE, 2);
    publishAndAwait(publisher, content);

    client.dynamicResourceAllocation().v1().resourcesSlices().delete();
    client.nodes().withName(NODE).delete();
    String newUid = createNode();
    assertThat(newUid).isNotEqualTo(nodeUid);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(slices())
                    .hasSize(3)
                    .allSatisfy(
                        s ->
                            assertThat(s.getMetadata().getOwnerReferences())
                                .singleElement()
                                .satisfies(o -> assertThat(o.getUid()).isEqualTo(newUid))));
    assertThat(new ResourceSliceReader(client).read(TestPools.DRIVER, NODE))
        .map(PublishedPool::content)
        .hasValue(content);
  }

  static void publishAndAwait(ResourceSlicePublisher publisher, PoolContent content) {
    publisher.publish(content);
    await().atMost(WAIT).until(publisher::published, Optional.of(content)::equals);
  }

  private List<ResourceSlice> slices() {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .filter(s -> NODE.equals(s.getSpec().getNodeName()))
        .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
        .toList();
  }

  private Map<String, String> resourceVersions() {
    return slices().stream()
        .collect(
            Collectors.toMap(
                s -> s.getMetadata().getName(), s -> s.getMetadata().getResourceVersion()));
  }

  static long generation(ResourceSlice slice) {
    return slice.getSpec().getPool().getGeneration();
  }
}
