package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.devices.MigStrategy;
import io.migd.layout.GpuIndex;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kubelet's view of a simulated node, end to end: a fake kubelet on a real unix socket sees
 * what NVML holds after each reconcile, through reshapes, kubelet restarts, pods, XIDs and grace.
 */
class KubeletSurfaceIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NODE = "A100-SXM4-40GB,H100-SXM5-80GB,T4";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        mixed-node:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"1g.5gb": 2, "1g.5gb+me": 1, "3g.20gb": 1}
          - devices: [1]
            mig-enabled: true
            mig-devices: {"2g.20gb": 1, "1g.10gb": 2}
          - devices: [2]
            mig-enabled: false
            time-slicing: {replicas: 4}
        reshaped:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 2}
          - devices: [1]
            mig-enabled: true
            mig-devices: {"2g.20gb": 1, "1g.10gb": 2}
          - devices: [2]
            mig-enabled: false
            time-slicing: {replicas: 4}
        both-reshaped:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 2}
          - devices: [1]
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
          - devices: [2]
            mig-enabled: false
            time-slicing: {replicas: 2}
        all-1g.5gb:
          - devices: all
            mig-enabled: true
            mig-devices: {"1g.5gb": 7}
        all-1g.10gb:
          - devices: all
            mig-enabled: true
            mig-devices: {"1g.10gb": 7}
        two-profiles:
          - devices: all
            mig-enabled: true
            mig-devices: {"1g.5gb": 3, "3g.20gb": 1}
      """;

  private SimulatedKubeletNode node;

  private SimulatedKubeletNode start(String models, MigStrategy strategy) {
    node = SimulatedKubeletNode.start(models, CONFIGS, strategy);
    return node;
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  private static void assertSucceeded(Outcome outcome) {
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
  }

  private void awaitIds(String resource, List<String> ids) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(node.kubelet.ids(resource)).containsExactlyInAnyOrderElementsOf(ids));
  }

  private Map<String, String> health(String resource) {
    return node.kubelet.latest(resource).orElseThrow().getDevicesList().stream()
        .collect(Collectors.toMap(d -> d.getID(), d -> d.getHealth()));
  }

  private List<String> replicas(int gpu, int count) {
    String uuid = node.gpu(gpu).uuid();
    return IntStream.range(0, count).mapToObj(n -> uuid + "::" + n).toList();
  }

  @Test
  void nothingIsRegisteredBeforeTheFirstReconcileThenANodeMixingMigAndTimeSlicingIsAdvertised() {
    start(NODE, MigStrategy.MIXED);
    assertThat(node.plugins.servedResources()).isEmpty();
    assertThat(node.kubelet.requests()).isEmpty();

    assertSucceeded(node.apply("mixed-node"));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(node.kubelet.registeredResources())
                    .containsExactlyInAnyOrder(
                        "nvidia.com/gpu",
                        "nvidia.com/mig-1g.5gb",
                        "nvidia.com/mig-1g.5gb.me",
                        "nvidia.com/mig-3g.20gb",
                        "nvidia.com/mig-1g.10gb",
                        "nvidia.com/mig-2g.20gb"));
    awaitIds("nvidia.com/mig-1g.5gb", node.migUuids(0, "1g.5gb"));
    awaitIds("nvidia.com/mig-1g.5gb.me", node.migUuids(0, "1g.5gb+me"));
    awaitIds("nvidia.com/mig-3g.20gb", node.migUuids(0, "3g.20gb"));
    awaitIds("nvidia.com/mig-1g.10gb", node.migUuids(1, "1g.10gb"));
    awaitIds("nvidia.com/mig-2g.20gb", node.migUuids(1, "2g.20gb"));
    awaitIds("nvidia.com/gpu", replicas(2, 4));
    assertThat(node.migUuids(0, "1g.5gb")).hasSize(2).allMatch(id -> id.startsWith("MIG-"));
    assertThat(health("nvidia.com/gpu").values()).containsOnly("Healthy");
    assertThat(node.kubelet.registrations())
        .allSatisfy(r -> assertThat(r.request().getVersion()).isEqualTo("v1beta1"));
  }

  @ParameterizedTest
  @CsvSource({"A100-SXM4-40GB, all-1g.5gb, 1g.5gb", "H100-SXM5-80GB, all-1g.10gb, 1g.10gb"})
  void singleAdvertisesSlicesAsGpusOnlyWhenTheNodeHasOneProfile(
      String model, String config, String profile) {
    start(model + "," + model, MigStrategy.SINGLE);
    assertSucceeded(node.apply(config));

    var expected =
        java.util.stream.Stream.concat(
                node.migUuids(0, profile).stream(), node.migUuids(1, profile).stream())
            .toList();
    assertThat(expected).hasSize(14);
    awaitIds("nvidia.com/gpu", expected);
    assertThat(node.kubelet.registeredResources()).containsExactly("nvidia.com/gpu");

    if (model.startsWith("A100")) {
      assertSucceeded(node.apply("two-profiles"));
      awaitIds("nvidia.com/gpu", List.of());
      assertThat(node.surface.current().notes())
          .singleElement()
          .asString()
          .contains("single", "1g.5gb", "3g.20gb");
    }
  }

  @Test
  void aReshapeChangesTheListsAtOnceWithdrawsSlicesBeforeTheyAreDestroyedAndKeepsEmptyResources() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    List<String> small = node.migUuids(0, "1g.5gb");
    awaitIds("nvidia.com/mig-1g.5gb", small);
    // each resource registers on its own: count once every one has
    await()
        .atMost(WAIT)
        .until(() -> node.kubelet.registrations().size() == node.plugins.servedResources().size());
    int registrationsBefore = node.kubelet.registrations().size();
    int publishesBefore = node.published.size();

    assertSucceeded(node.apply("reshaped"));

    awaitIds("nvidia.com/mig-1g.5gb", List.of());
    awaitIds("nvidia.com/mig-1g.5gb.me", List.of());
    awaitIds("nvidia.com/mig-3g.20gb", node.migUuids(0, "3g.20gb"));
    assertThat(node.migUuids(0, "3g.20gb")).hasSize(2);
    assertThat(node.kubelet.streaming("nvidia.com/mig-1g.5gb")).isTrue();
    assertThat(node.kubelet.registrations()).hasSize(registrationsBefore);
    // the withdrawal came first: the slices were gone from the list while NVML still held them
    var during = node.published.subList(publishesBefore, node.published.size());
    assertThat(during).hasSizeGreaterThanOrEqualTo(2);
    assertThat(during.getFirst().inventory().devices("nvidia.com/mig-1g.5gb")).isEmpty();
    assertThat(during.getFirst().migUuidsInNvml()).containsAll(small);
    // the H100 and the T4 were not touched: their devices never left the lists
    assertThat(during)
        .allSatisfy(p -> assertThat(p.inventory().devices("nvidia.com/gpu")).hasSize(4));
  }

  @Test
  void aRunThatFailsAfterItsPlanRanNeverShowsTheKubeletTheSlicesThePlanDestroyed() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    List<String> small = node.migUuids(0, "1g.5gb");
    awaitIds("nvidia.com/mig-1g.5gb", small);

    Desired reshaped = Desired.config(Desired.Source.FILE, "reshaped", 99);
    assertSucceeded(node.reconciler.reconcile(reshaped));
    assertThat(node.migUuids(0, "1g.5gb")).isEmpty();
    // the run then throws as a whole, and the loop tells the surfaces an outcome without GPUs
    node.surface.reconciled(
        reshaped, Outcome.failed(99, "reconcile failed: a bug in migd", Instant.now()));

    assertThat(node.published.getLast().inventory().devices("nvidia.com/mig-1g.5gb")).isEmpty();
    awaitIds("nvidia.com/mig-1g.5gb", List.of());
    assertThat(node.kubelet.ids("nvidia.com/mig-1g.5gb")).doesNotContainAnyElementsOf(small);

    assertSucceeded(node.apply("reshaped"));
    awaitIds("nvidia.com/mig-3g.20gb", node.migUuids(0, "3g.20gb"));
  }

  @Test
  void cdiSpecsAreRefreshedBeforeDevicesNotAdvertisedBeforeAreAdvertised() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    assertThat(node.cdiRefreshes).singleElement().isEqualTo(io.migd.devices.Inventory.EMPTY);

    assertSucceeded(node.apply("mixed-node"));
    assertThat(node.cdiRefreshes).as("nothing new: no refresh").hasSize(1);

    assertSucceeded(node.apply("reshaped"));
    assertThat(node.cdiRefreshes).hasSize(2);
    List<String> added = node.migUuids(0, "3g.20gb");
    var shownDuringRefresh = node.cdiRefreshes.get(1).devices("nvidia.com/mig-3g.20gb");
    assertThat(shownDuringRefresh.stream().map(d -> d.id()).toList()).hasSize(1).isSubsetOf(added);
    awaitIds("nvidia.com/mig-3g.20gb", added);
  }

  @Test
  void aGpuNvmlCannotObserveKeepsItsDevicesListedUnhealthyUntilItAnswersAgain() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    List<String> small = node.migUuids(0, "1g.5gb");
    awaitIds("nvidia.com/mig-1g.5gb", small);

    node.sim.require("faults", "nvmlDeviceGetMigMode@0=NVML_ERROR_UNKNOWN");
    Outcome failing = node.apply("mixed-node");
    assertThat(failing.results().get(new GpuIndex(0)).state()).isEqualTo(GpuResult.State.FAILED);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(health("nvidia.com/mig-1g.5gb")).containsOnlyKeys(small);
              assertThat(health("nvidia.com/mig-1g.5gb").values()).containsOnly("Unhealthy");
              assertThat(health("nvidia.com/gpu").values()).hasSize(4).containsOnly("Healthy");
            });

    node.sim.require("faults", "");
    assertSucceeded(node.apply("mixed-node"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/mig-1g.5gb").values()).containsOnly("Healthy"));
  }

  @Test
  void aKubeletRestartLeadsToReRegistrationOfEveryResource() throws Exception {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    awaitIds("nvidia.com/gpu", replicas(2, 4));
    var resources = node.plugins.servedResources();

    long start = System.nanoTime();
    node.kubelet = FakeKubelet.restart(node.kubelet);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(node.kubelet.registeredResources())
                  .containsExactlyInAnyOrderElementsOf(resources);
              resources.forEach(r -> assertThat(node.kubelet.streaming(r)).isTrue());
            });
    System.out.printf(
        "kubelet restart: %d resources registered again in %d ms%n",
        resources.size(), (System.nanoTime() - start) / 1_000_000);
    awaitIds("nvidia.com/mig-3g.20gb", node.migUuids(0, "3g.20gb"));
  }

  private void podHolds(String resource, String deviceId) {
    node.podResources.answer(
        FakePodResources.onePod("ml", "trainer-0", "main", resource, deviceId));
  }

  @Test
  void aSliceAPodHoldsIsNeverDestroyedAndTheOtherGpusChange() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    String held = node.migUuids(0, "1g.5gb").getFirst();
    podHolds("nvidia.com/mig-1g.5gb", held);

    Outcome outcome = node.apply("both-reshaped");

    assertThat(outcome.results().get(new GpuIndex(0)).state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(outcome.results().get(new GpuIndex(0)).reason()).contains("pod ml/trainer-0");
    assertThat(outcome.results().get(new GpuIndex(1)).state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(outcome.results().get(new GpuIndex(2)).state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(node.migUuids(0, "1g.5gb")).contains(held);
    awaitIds("nvidia.com/mig-3g.40gb", node.migUuids(1, "3g.40gb"));
    awaitIds("nvidia.com/gpu", replicas(2, 2));
    assertThat(node.kubelet.ids("nvidia.com/mig-1g.5gb")).contains(held);
  }

  @Test
  void underNoneAPodGivenAMigEnabledGpuWholeBlocksReshapingItsInstances() {
    start(NODE, MigStrategy.NONE);
    assertSucceeded(node.apply("mixed-node"));
    String a100 = node.gpu(0).uuid();
    awaitIds(
        "nvidia.com/gpu",
        java.util.stream.Stream.concat(
                java.util.stream.Stream.of(a100, node.gpu(1).uuid()), replicas(2, 4).stream())
            .toList());
    podHolds("nvidia.com/gpu", a100);

    Outcome outcome = node.apply("reshaped");

    assertThat(outcome.results().get(new GpuIndex(0)).state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(outcome.results().get(new GpuIndex(0)).reason()).contains("pod ml/trainer-0");
    assertThat(node.migUuids(0, "1g.5gb")).hasSize(2);
  }

  @Test
  void allocateReturnsWhatTheRuntimeNeedsAndRefusesUnknownIds() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    String slice = node.migUuids(0, "3g.20gb").getFirst();
    awaitIds("nvidia.com/mig-3g.20gb", List.of(slice));
    awaitIds("nvidia.com/gpu", replicas(2, 4));
    String t4 = node.gpu(2).uuid();

    AllocateResponse mig = node.kubelet.plugin("nvidia.com/mig-3g.20gb").allocate(request(slice));
    AllocateResponse shared =
        node.kubelet.plugin("nvidia.com/gpu").allocate(request(t4 + "::1", t4 + "::3"));

    assertThat(mig.getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", slice);
    assertThat(mig.getContainerResponses(0).getCdiDevicesList())
        .extracting(d -> d.getName())
        .containsExactly("k8s.migd.io/gpu=" + slice);
    assertThat(shared.getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", t4);
    assertThatThrownBy(
            () -> node.kubelet.plugin("nvidia.com/gpu").allocate(request("GPU-not-there")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains("GPU-not-there");
            });
  }

  private static AllocateRequest request(String... ids) {
    return AllocateRequest.newBuilder()
        .addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(List.of(ids)))
        .build();
  }

  @Test
  void aDeviceAllocatedButNotListedYetIsKeptForTheGraceThenReshaped() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    String slice = node.migUuids(0, "1g.5gb").getFirst();
    awaitIds("nvidia.com/mig-1g.5gb", node.migUuids(0, "1g.5gb"));
    node.kubelet.plugin("nvidia.com/mig-1g.5gb").allocate(request(slice));

    node.clock.advance(SimulatedKubeletNode.GRACE.minusSeconds(1));
    Outcome within = node.apply("reshaped");
    assertThat(within.results().get(new GpuIndex(0)).state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(within.results().get(new GpuIndex(0)).reason()).contains(slice);
    assertThat(node.migUuids(0, "1g.5gb")).contains(slice);

    node.clock.advance(Duration.ofSeconds(2));
    assertSucceeded(node.apply("reshaped"));
    assertThat(node.migUuids(0, "1g.5gb")).isEmpty();
  }

  @Test
  void aSliceHandedOutJustBeforeItsWithdrawalIsNotDestroyed() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    String slice = node.migUuids(0, "1g.5gb").getFirst();
    // the kubelet's Allocate lands after the planner read usage, before the slice was withdrawn
    node.beforePublish =
        inventory -> {
          if (inventory.devices("nvidia.com/mig-1g.5gb").isEmpty()) {
            node.grace.allocated("nvidia.com/mig-1g.5gb", List.of(slice));
          }
        };

    Outcome outcome = node.apply("reshaped");

    assertThat(outcome.results().get(new GpuIndex(0)).state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(outcome.results().get(new GpuIndex(0)).reason()).contains(slice);
    assertThat(node.migUuids(0, "1g.5gb")).contains(slice);
    awaitIds("nvidia.com/mig-1g.5gb", node.migUuids(0, "1g.5gb"));
  }

  @Test
  void aHealthCheckWaitingOnNvmlBehindAResetHoldsUpNoPlan() throws Exception {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    await().atMost(Duration.ofSeconds(10)).until(node.xids::isWatching);
    var gpuInstance = node.gpu(0).gpuInstances().getFirst();
    String slice = gpuInstance.computeInstances().getFirst().uuid();
    node.sim.require("xid", "--gpu", "2", "--xid", "48");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/gpu").values()).containsOnly("Unhealthy"));
    node.askNvmlAtPublish = false;
    var asking = new CountDownLatch(1);
    node.beforeNvmlAnswers = asking::countDown;
    var released = new CountDownLatch(1);
    var resetEnds = new CountDownLatch(1);
    // a GPU reset in flight: migd's NVML is released until it ends, as a reset holds it
    Thread reset =
        Thread.ofPlatform()
            .start(
                () ->
                    node.nvml.whileReleased(
                        () -> {
                          released.countDown();
                          awaitQuietly(resetEnds);
                          return null;
                        }));
    try {
      assertThat(released.await(30, TimeUnit.SECONDS)).isTrue();
      node.clock.advance(SimulatedKubeletNode.RECOVERY);
      // the health check now asks NVML, which answers once the reset ends
      assertThat(asking.await(30, TimeUnit.SECONDS)).isTrue();

      // meanwhile another GPU's plan withdraws the slice it destroys, on the GPU's thread
      var withdrawn =
          CompletableFuture.runAsync(
              () ->
                  node.surface.planMade(
                      new GpuIndex(0),
                      new Plan(
                          List.of(new Step.DestroyGpuInstance(new GpuIndex(0), gpuInstance.id())))),
              command -> Thread.ofPlatform().start(command));

      await().atMost(Duration.ofSeconds(30)).until(withdrawn::isDone);
      assertThat(resetEnds.getCount()).as("the reset is still in flight").isEqualTo(1);
      assertThat(node.surface.current().resources().values().stream().flatMap(List::stream))
          .noneMatch(d -> d.id().equals(slice));
    } finally {
      resetEnds.countDown();
      reset.join();
    }
  }

  @Test
  void anXidWhileAPublishIsInItsSocketWorkIsTakenAtOnceAndTheNewestListReachesTheKubelet()
      throws Exception {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    awaitIds("nvidia.com/gpu", replicas(2, 4));
    await().atMost(Duration.ofSeconds(10)).until(node.xids::isWatching);
    var gpuInstances = node.gpu(0).gpuInstances();
    var large =
        gpuInstances.stream()
            .filter(gi -> gi.profile().toString().equals("3g.20gb"))
            .findFirst()
            .orElseThrow();
    var small =
        gpuInstances.stream()
            .filter(gi -> gi.profile().toString().equals("1g.5gb"))
            .findFirst()
            .orElseThrow();
    String marked = small.computeInstances().getFirst().uuid();
    var inSocketWork = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    node.beforePublish =
        inventory -> {
          inSocketWork.countDown();
          awaitQuietly(release);
        };
    try {
      // a plan withdraws a slice: its publish is held in the device plugins' socket work
      var withdrawn =
          CompletableFuture.runAsync(
              () ->
                  node.surface.planMade(
                      new GpuIndex(0),
                      new Plan(List.of(new Step.DestroyGpuInstance(new GpuIndex(0), large.id())))),
              command -> Thread.ofPlatform().start(command));
      assertThat(inSocketWork.await(30, TimeUnit.SECONDS)).isTrue();

      // the XID thread takes one XID, then the next, while that publish is still held
      node.sim.require("xid", "--gpu", "2", "--xid", "48");
      node.sim.require("xid", "--gpu", "0", "--gi", Integer.toString(small.id()), "--xid", "94");
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(node.surface.current().resources().get("nvidia.com/mig-1g.5gb"))
                      .filteredOn(d -> d.id().equals(marked))
                      .singleElement()
                      .matches(d -> !d.healthy(), "unhealthy"));
      assertThat(withdrawn).as("the plan goes on once the kubelet was told").isNotDone();
      node.beforePublish = inventory -> {};
      release.countDown();
      await().atMost(WAIT).until(withdrawn::isDone);
    } finally {
      node.beforePublish = inventory -> {};
      release.countDown();
    }

    // the newest list reaches the kubelet: the slice withdrawn, both XIDs' marks
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(health("nvidia.com/gpu").values()).hasSize(4).containsOnly("Unhealthy");
              assertThat(health("nvidia.com/mig-1g.5gb")).containsEntry(marked, "Unhealthy");
              assertThat(health("nvidia.com/mig-3g.20gb")).isEmpty();
            });
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void anXidMarksItsSliceOrItsWholeGpuUnhealthyAndEachPathLeadsBack() {
    start(NODE, MigStrategy.MIXED);
    assertSucceeded(node.apply("mixed-node"));
    awaitIds("nvidia.com/gpu", replicas(2, 4));
    await().atMost(Duration.ofSeconds(10)).until(node.xids::isWatching);

    // an application XID changes nothing; the critical XID after it marks only its slice
    var small =
        node.gpu(0).gpuInstances().stream()
            .filter(gi -> gi.profile().toString().equals("1g.5gb"))
            .toList();
    int giId = small.getFirst().id();
    String marked = small.getFirst().computeInstances().getFirst().uuid();
    String other = small.get(1).computeInstances().getFirst().uuid();
    node.sim.require(
        "xid", "--gpu", "0", "--gi", Integer.toString(small.get(1).id()), "--xid", "13");
    node.sim.require("xid", "--gpu", "0", "--gi", Integer.toString(giId), "--xid", "94");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/mig-1g.5gb")).containsEntry(marked, "Unhealthy"));
    assertThat(health("nvidia.com/mig-1g.5gb")).containsEntry(other, "Healthy");
    assertThat(health("nvidia.com/mig-3g.20gb").values()).containsOnly("Healthy");

    // a whole-GPU XID marks every replica of the T4
    node.sim.require("xid", "--gpu", "2", "--xid", "48");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(health("nvidia.com/gpu").values()).hasSize(4).containsOnly("Unhealthy"));

    // path 1: the recovery period passes with no new XID while NVML answers
    node.clock.advance(SimulatedKubeletNode.RECOVERY);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(health("nvidia.com/gpu").values()).containsOnly("Healthy");
              assertThat(health("nvidia.com/mig-1g.5gb").values()).containsOnly("Healthy");
            });

    // path 2: the instance is re-created
    node.sim.require("xid", "--gpu", "0", "--gi", Integer.toString(giId), "--xid", "94");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/mig-1g.5gb")).containsEntry(marked, "Unhealthy"));
    assertSucceeded(node.apply("reshaped"));
    assertSucceeded(node.apply("mixed-node"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/mig-1g.5gb").values()).containsOnly("Healthy"));

    // path 3: the GPU is reset
    node.sim.require("xid", "--gpu", "2", "--xid", "48");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(health("nvidia.com/gpu").values()).containsOnly("Unhealthy"));
    node.surface
        .watching(
            gpu -> {
              var result = node.sim.resetGpu(gpu.index().value());
              return io.migd.reconcile.GpuReset.Result.of(result.succeeded(), result.output());
            })
        .reset(node.gpu(2));
    assertSucceeded(node.apply("mixed-node"));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(health("nvidia.com/gpu").values()).containsOnly("Healthy"));
  }
}
