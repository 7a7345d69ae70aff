package io.migd.claims;

import static io.migd.claims.ClaimsRig.failure;
import static io.migd.claims.ClaimsRig.prepared;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.claims.AllocatedClaim.Result;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ReservedPod;
import io.migd.pool.DeviceOrigin;
import io.migd.profiles.Placement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prepare and unprepare of DRA claims against the simulated NVML: GPU 0 is an A100 (Ampere: MIG
 * enabled by the reconcile loop, here by the test), GPU 1 an H100 (Hopper: MIG follows the claims),
 * both dynamic.
 */
class ClaimPreparerIT {
  @TempDir Path dir;
  private ClaimsRig rig;

  @BeforeEach
  void start() {
    rig = ClaimsRig.start(dir, "A100-SXM4-40GB,H100-SXM5-80GB");
    rig.enableMig(0);
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  private String gpuUuid(int gpu) {
    return rig.nvml.uuid(rig.nvml.deviceByIndex(gpu));
  }

  @Test
  void createsTheInstanceAtTheAllocatedPlacementWithAComputeInstanceSpanningIt() {
    String device = rig.deviceAt(0, "3g.20gb", 4);
    var claim = rig.allocate("c1", device);

    var answer = prepared(rig.prepare(claim));

    assertThat(rig.instances(0))
        .singleElement()
        .satisfies(
            gi -> {
              assertThat(gi.placement()).isEqualTo(new Placement(4, 4));
              assertThat(gi.profileId()).isEqualTo(9);
              assertThat(gi.computeInstances())
                  .singleElement()
                  .satisfies(ci -> assertThat(ci.placement()).isEqualTo(new Placement(0, 3)));
            });
    String migUuid = rig.instances(0).getFirst().computeInstances().getFirst().uuid();
    assertThat(answer.devices())
        .containsExactly(
            new CheckpointClaim.Device(
                new ClaimDevice.Made(
                    device,
                    new GpuIndex(0),
                    gpuUuid(0),
                    new ClaimDevice.MigInstance(
                        rig.instances(0).getFirst().id(),
                        rig.instances(0).getFirst().computeInstances().getFirst().id(),
                        migUuid)),
                CheckpointClaim.Kind.CREATED,
                List.of("req-0"),
                List.of("k8s.migd.io/claim=c1-" + device),
                ""));
    assertThat(rig.preparer.claimed().all())
        .singleElement()
        .satisfies(
            owned -> {
              assertThat(owned.device().deviceUuid()).isEqualTo(migUuid);
              assertThat(owned.completed()).isTrue();
              assertThat(owned.device().owns(rig.instances(0).getFirst())).isTrue();
            });
    assertThat(rig.cdi.spec("c1")).hasSize(1);
  }

  @Test
  void anNvmlFailureIsAnsweredAsASentenceNamingTheCallAndItsCode() {
    rig.sim.require(
        "faults", "nvmlGpuInstanceCreateComputeInstanceWithPlacement=NVML_ERROR_IN_USE");

    String error = failure(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 2))));

    assertThat(error)
        .startsWith("preparing claim ")
        .contains(
            "NVML failed: nvmlGpuInstanceCreateComputeInstanceWithPlacement returned"
                + " NVML_ERROR_IN_USE (")
        .doesNotContain("io.migd")
        .doesNotContain("Exception");
  }

  @Test
  void aSweepWhoseGpuTurnedStaticBeforeItsTurnLeavesTheGpuToTheReconcile() {
    LiveGpuInstance halfMade = rig.halfMadeInstance(0, "1g.5gb", 0);
    rig.staticGpus.add(new GpuIndex(0));

    rig.preparer.sweepHalfMade(new GpuIndex(0));
    // queued on GPU 0's lane behind the sweep: when it answers, the sweep has had its turn
    rig.prepare(rig.allocate("after", rig.deviceAt(0, "1g.5gb", 6)));

    assertThat(rig.instances(0)).contains(halfMade);
  }

  @Test
  void aGpuInstanceWithoutAComputeInstanceThatNoClaimOwnsIsSweptAndAnIdleCompleteOneKept() {
    LiveGpuInstance complete = rig.idleInstance(0, "1g.5gb", 6);
    rig.halfMadeInstance(0, "1g.5gb", 0);
    rig.halfMadeInstance(0, "2g.10gb", 2);
    assertThat(rig.instances(0)).hasSize(3);

    rig.preparer.sweepHalfMade(new GpuIndex(0));

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(rig.instances(0)).containsExactly(complete));
  }

  @Test
  void reusesAnIdleInstanceOfTheProfileAtThePlacement() {
    LiveGpuInstance idle = rig.idleInstance(0, "1g.5gb", 2);
    rig.sim.require("faults", "nvmlDeviceCreateGpuInstanceWithPlacement=NVML_ERROR_UNKNOWN");

    prepared(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 2))));

    assertThat(rig.instances(0)).containsExactly(idle);
    assertThat(rig.preparer.claimed().all().getFirst().device().deviceUuid())
        .isEqualTo(idle.computeInstances().getFirst().uuid());
  }

  @Test
  void destroysIdleInstancesThatOverlapThePlacementFirst() {
    rig.idleInstance(0, "2g.10gb", 0);
    rig.idleInstance(0, "1g.5gb", 3);

    prepared(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 1))));

    assertThat(rig.instances(0))
        .extracting(LiveGpuInstance::placement)
        .containsExactly(new Placement(1, 1), new Placement(3, 1));
  }

  /**
   * The GPU has one optical-flow engine: an idle {@code +me} instance (a static spell's, left when
   * the GPU turned dynamic) holds it, so NVML refuses another {@code +me} instance at any
   * placement. Found by the DRA chaos run (seed 2, A30): the claim failed with {@code
   * INSUFFICIENT_RESOURCES} on every retry.
   */
  @Test
  void destroysAnIdleInstanceHoldingTheOnlyOfaEngineThePlacementNeeds() {
    rig.idleInstance(0, "1g.5gb+me", 0);

    prepared(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb+me", 1))));

    assertThat(rig.instances(0))
        .extracting(LiveGpuInstance::placement)
        .containsExactly(new Placement(1, 1));
  }

  @Test
  void neverDestroysAnInstanceAProcessUses() {
    LiveGpuInstance busy = rig.idleInstance(0, "2g.10gb", 0);
    rig.attachProcess(0, busy.id(), 4242, "trainer");

    String error = failure(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 1))));

    assertThat(error).contains(rig.deviceAt(0, "1g.5gb", 1)).contains("process 4242 (trainer)");
    assertThat(rig.instances(0)).containsExactly(busy);
    assertThat(rig.preparer.claimed().all()).allMatch(d -> !d.completed());
  }

  @Test
  void unprepareOfAnInstanceInUseFailsNamingTheProcessAndTheClaimStaysItsOwner() {
    var claim = rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 5));
    prepared(rig.prepare(claim));
    LiveGpuInstance mine = rig.instances(0).getFirst();
    rig.attachProcess(0, mine.id(), 77, "worker");

    var refused = rig.unprepare(claim);

    assertThat(refused).isInstanceOf(UnprepareAnswer.Failed.class);
    assertThat(((UnprepareAnswer.Failed) refused).error()).contains("process 77 (worker)");
    assertThat(rig.preparer.claimed().all())
        .singleElement()
        .matches(d -> d.key().uid().equals("c1"));
    assertThat(rig.instances(0)).containsExactly(mine);

    rig.sim.require("detach", "--pid", "77");
    assertThat(rig.unprepare(claim)).isInstanceOf(UnprepareAnswer.Unprepared.class);
    assertThat(rig.instances(0)).isEmpty();
    assertThat(rig.preparer.claimed().all()).isEmpty();
    assertThat(rig.cdi.spec("c1")).isEmpty();
  }

  @Test
  void aSecondPrepareAnswersTheSameDevicesAndUnpreparingAnUnknownClaimSucceeds() {
    var claim = rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 0), rig.deviceAt(0, "2g.10gb", 4));
    var first = prepared(rig.prepare(claim));
    var instances = rig.instances(0);

    assertThat(rig.prepare(claim)).isEqualTo(first);
    assertThat(rig.instances(0)).isEqualTo(instances);
    assertThat(first.devices())
        .extracting(CheckpointClaim.Device::requestNames)
        .containsExactly(List.of("req-0"), List.of("req-1"));

    assertThat(rig.unprepare(ClaimsRig.key("never")))
        .isEqualTo(new UnprepareAnswer.Unprepared(ClaimsRig.key("never")));
  }

  @Test
  void adminAccessCreatesNothingAndAnswersOnlyADeviceThatExists() {
    String device = rig.deviceAt(0, "1g.5gb", 6);
    var admin =
        rig.allocate(
            "admin",
            List.of(new Result("req-0", ClaimsRig.DRIVER, ClaimsRig.POOL, device, true)),
            List.of());

    assertThat(prepared(rig.prepare(admin)).devices()).isEmpty();
    assertThat(rig.instances(0)).isEmpty();
    rig.unprepare(admin);

    prepared(rig.prepare(rig.allocate("user", device)));
    assertThat(prepared(rig.prepare(admin)).devices())
        .extracting(CheckpointClaim.Device::name)
        .containsExactly(device);
    assertThat(rig.unprepare(admin)).isInstanceOf(UnprepareAnswer.Unprepared.class);
    assertThat(rig.instances(0)).hasSize(1);
  }

  @Test
  void preparesOnlyMigdsResultsAndRefusesAnotherPoolOrOpaqueConfig() {
    String device = rig.deviceAt(0, "1g.5gb", 0);
    var other =
        rig.allocate(
            "other",
            List.of(new Result("net", "net.example.com", "node-a", "nic-0", false)),
            List.of(
                new AllocatedClaim.Config(
                    false, List.of(), "net.example.com", Map.of("anything", 1))));
    assertThat(prepared(rig.prepare(other)).devices()).isEmpty();

    var elsewhere =
        rig.allocate(
            "elsewhere",
            List.of(new Result("req-0", ClaimsRig.DRIVER, "node-b", device, false)),
            List.of());
    assertThat(failure(rig.prepare(elsewhere))).contains(device).contains("node-b");

    var opaque =
        rig.allocate(
            "opaque",
            List.of(new Result("req-0", ClaimsRig.DRIVER, ClaimsRig.POOL, device, false)),
            List.of(
                new AllocatedClaim.Config(
                    false,
                    List.of(),
                    ClaimsRig.DRIVER,
                    Map.of(
                        "apiVersion", "resource.nvidia.com/v1beta1", "kind", "VfioDeviceConfig"))));
    assertThat(failure(rig.prepare(opaque)))
        .contains("opaque configuration 1 for driver " + ClaimsRig.DRIVER)
        .contains("kind VfioDeviceConfig is not served by migd");

    assertThat(failure(rig.prepare(ClaimsRig.key("missing")))).contains("does not exist");
    assertThat(failure(rig.prepare(rig.allocate("unknown", "gpu-0-mig-9g-99-0"))))
        .contains("gpu-0-mig-9g-99-0")
        .contains("not in pool");
    assertThat(rig.instances(0)).isEmpty();
  }

  @Test
  void aGpuNotReconciledYetAnswersARetryableError() {
    rig.unreconciled.add(new GpuIndex(1));

    assertThat(failure(rig.prepare(rig.allocate("c1", rig.deviceAt(1, "1g.10gb", 0)))))
        .isEqualTo("GPU 1 not reconciled yet");
    assertThat(rig.migEnabled(1)).isFalse();
  }

  @Test
  void onHopperMigFollowsTheClaimsAndTheWholeGpuDisablesIt() {
    assertThat(rig.migEnabled(1)).isFalse();

    var slice = rig.allocate("slice", rig.deviceAt(1, "1g.10gb", 3));
    prepared(rig.prepare(slice));
    assertThat(rig.migEnabled(1)).isTrue();
    assertThat(rig.instances(1))
        .extracting(LiveGpuInstance::placement)
        .containsExactly(new Placement(3, 1));

    var whole = rig.allocate("whole", "gpu-1");
    assertThat(failure(rig.prepare(whole))).contains("gpu-1").contains(slice.label());

    rig.unprepare(slice);
    rig.idleInstance(1, "2g.20gb", 4);
    prepared(rig.prepare(whole));
    assertThat(rig.migEnabled(1)).isFalse();

    assertThat(failure(rig.prepare(rig.allocate("late", rig.deviceAt(1, "1g.10gb", 0)))))
        .contains("prepared whole for claim " + whole.label());
  }

  @Test
  void onAmpereMigModeIsNeverTouched() {
    rig.nvml.setMigMode(rig.nvml.deviceByIndex(0), false);

    assertThat(failure(rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 0)))))
        .contains("MIG mode of GPU 0 is not enabled yet");
    assertThat(rig.migEnabled(0)).isFalse();
  }

  @Test
  void preparesTheClaimsOfOneCallAtOnce() {
    var a = rig.allocate("a", rig.deviceAt(0, "1g.5gb", 0));
    var b = rig.allocate("b", rig.deviceAt(1, "1g.10gb", 0));
    var bothRead = new CountDownLatch(2);
    rig.claims.onGet(
        name -> {
          bothRead.countDown();
          try {
            // each claim's read waits for the other's: one at a time never gets past it
            if (!bothRead.await(30, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the claims were read one after the other");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });

    var answers = rig.preparer.prepare(List.of(a, b));

    assertThat(answers).allMatch(PrepareAnswer.Prepared.class::isInstance);
    assertThat(answers).extracting(PrepareAnswer::claim).containsExactly(a, b);
    assertThat(rig.instances(0)).hasSize(1);
    assertThat(rig.instances(1)).hasSize(1);
  }

  /**
   * A static slice is answered only while it exists: the pool is published from an observation, and
   * an unprepare or a plan can destroy the instance before a claim allocated from that pool is
   * prepared. The chaos run's claim got a MIG device that no longer existed.
   */
  @Test
  void aStaticSliceGoneSinceThePoolWasPublishedFailsTheClaimNamingIt() {
    var gpu = new GpuIndex(1);
    DeviceHandle device = rig.nvml.deviceByIndex(1);
    rig.nvml.setMigMode(device, true);
    var gi = rig.nvml.createGpuInstance(device, 19, new InstancePlacement(0, 1));
    rig.nvml.createComputeInstance(gi, 0, new InstancePlacement(0, 1));
    var seen = rig.instances(1).getFirst();
    String migUuid = seen.computeInstances().getFirst().uuid();
    rig.extra.add(
        ClaimsRig.device(
            "static-there", new DeviceOrigin.StaticSlice(gpu, gpuUuid(1), seen.id(), 0, migUuid)));
    rig.extra.add(
        ClaimsRig.device(
            "static-gone",
            new DeviceOrigin.StaticSlice(gpu, gpuUuid(1), seen.id() + 1, 0, "MIG-gone")));

    prepared(rig.prepare(rig.allocate("there", "static-there")));
    assertThat(failure(rig.prepare(rig.allocate("gone", "static-gone"))))
        .contains("device static-gone: its MIG device MIG-gone is gone from GPU 1");
  }

  @Test
  void aPrepareThatChangesNothingInNvmlFlushesTheCheckpointOnceAndACreatingOneBeforeNvml() {
    var gpu = new GpuIndex(1);
    rig.extra.add(
        ClaimsRig.device("static-gpu-1", new DeviceOrigin.WholeGpu(gpu, gpuUuid(1), false)));
    Path file = dir.resolve("state").resolve(ClaimCheckpoint.FILE_NAME);
    // what the disk holds when the CDI spec is written: after NVML, before the answer's record
    var onDiskBeforeAnswer = new ArrayList<String>();
    ClaimCdi peeking =
        new ClaimCdi() {
          @Override
          public List<String> write(String claimUid, List<CdiDevice> devices) {
            onDiskBeforeAnswer.add(claimUid + ": " + (Files.exists(file) ? read(file) : "none"));
            return rig.cdi.write(claimUid, devices);
          }

          @Override
          public void remove(String claimUid) {
            rig.cdi.remove(claimUid);
          }
        };
    rig.preparer.close();
    rig.preparer =
        new ClaimPreparer(
            rig.claims, rig.node(), peeking, rig.settings(), ClaimEvents.NONE, rig.claims);

    prepared(rig.prepare(rig.allocate("static", "static-gpu-1")));

    // nothing of a whole static GPU to undo after a crash: no record flushed before the answer's
    assertThat(onDiskBeforeAnswer).containsExactly("static: none");
    assertThat(read(file)).contains("\"static\"");
    assertThat(rig.preparer.claimed().all())
        .singleElement()
        .satisfies(d -> assertThat(d.completed()).isTrue());

    LiveGpuInstance idle = rig.idleInstance(0, "1g.5gb", 2);
    prepared(rig.prepare(rig.allocate("reused", rig.deviceAt(0, "1g.5gb", 2))));

    // an idle instance taken as it is: nothing to undo either
    assertThat(rig.instances(0)).containsExactly(idle);
    assertThat(onDiskBeforeAnswer.get(1)).startsWith("reused: ").doesNotContain("\"reused\"");

    prepared(rig.prepare(rig.allocate("made", rig.deviceAt(0, "1g.5gb", 4))));

    // an instance created: its claim was on the disk before NVML created it
    assertThat(rig.instances(0)).hasSize(2);
    assertThat(onDiskBeforeAnswer.get(2)).startsWith("made: ").contains("\"made\"");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The delayed destroy tells the pool too (issue 29): the instance withheld nothing while kept,
   * but once it is gone its GPU must be observed again and republished, so every GPU touch after
   * the destroy is counted.
   */
  @Test
  void anUnpreparedInstanceIsKeptIdleForReuseUntilReclaimAfterThenThePoolIsRebuilt() {
    rig.preparer.close();
    rig.reclaimAfter = java.time.Duration.ofMillis(200);
    var touchedWithoutInstances = new java.util.concurrent.atomic.AtomicInteger();
    rig.events =
        new ClaimEvents() {
          @Override
          public void touched(Set<GpuIndex> gpus) {
            if (rig.instances(0).isEmpty()) {
              touchedWithoutInstances.incrementAndGet();
            }
          }
        };
    rig.preparer = rig.newPreparer();
    var claim = rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 4));
    prepared(rig.prepare(claim));

    assertThat(rig.unprepare(claim)).isInstanceOf(UnprepareAnswer.Unprepared.class);

    assertThat(rig.preparer.claimed().all()).isEmpty();
    assertThat(rig.instances(0)).as("kept idle for reuse").hasSize(1);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> touchedWithoutInstances.get() > 0);
    assertThat(rig.instances(0)).isEmpty();
  }

  @Test
  void recordsTheRequestsDeviceClassAndTheReservedPodsContainersAndTheClaimCheckReadsThemAgain() {
    String device = rig.deviceAt(0, "3g.20gb", 4);
    var key = ClaimsRig.key("c1");
    rig.claims.put(reservedForJob(key, device));
    rig.claims.put(job(List.of(new ConsumerPod.Container("trainer", List.of("gpu")))));

    prepared(rig.prepare(key));

    assertThat(rig.preparer.claimed().all())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.deviceClass()).isEqualTo("mig.nvidia.com");
              assertThat(d.pods())
                  .containsExactly(
                      new ReservedPod(ClaimsRig.NAMESPACE, "job", "pod-uid", List.of("trainer")));
            });

    rig.claims.put(
        job(
            List.of(
                new ConsumerPod.Container("trainer", List.of("gpu")),
                new ConsumerPod.Container("exporter", List.of("gpu")))));
    assertThat(rig.preparer.claimCheck()).isEmpty();

    assertThat(rig.preparer.claimed().all().getFirst().pods())
        .containsExactly(
            new ReservedPod(ClaimsRig.NAMESPACE, "job", "pod-uid", List.of("trainer", "exporter")));
  }

  @Test
  void theClaimCheckRefreshingPodsNeverMakesTheKubeletsPrepareOrUnprepareFail() throws Exception {
    String device = rig.deviceAt(0, "1g.5gb", 2);
    var key = ClaimsRig.key("c1");
    rig.claims.put(reservedForJob(key, device));
    var stop = new AtomicBoolean();
    // the check runs the whole time, and the pod's containers change at every read, so every
    // check records the claim's pods anew
    var checks =
        CompletableFuture.runAsync(
            () -> {
              for (int i = 0; !stop.get(); i++) {
                rig.claims.put(job(List.of(new ConsumerPod.Container("c" + i, List.of("gpu")))));
                rig.preparer.claimCheck();
              }
            });
    var refused = new ArrayList<String>();
    try {
      for (int round = 0; round < 150 && refused.isEmpty(); round++) {
        if (rig.prepare(key) instanceof PrepareAnswer.Failed(var _, var error)) {
          refused.add("prepare: " + error);
        }
        if (rig.preparer.unprepare(List.of(key)).getFirst()
            instanceof UnprepareAnswer.Failed(var _, var error)) {
          refused.add("unprepare: " + error);
        }
      }
    } finally {
      stop.set(true);
    }
    checks.get(60, TimeUnit.SECONDS);

    assertThat(refused).isEmpty();
    assertThat(rig.preparer.claimed().all()).as("the last unprepare stays undone").isEmpty();
  }

  /** Claim {@code key} allocated {@code device} of the mig.nvidia.com class, reserved for "job". */
  private static AllocatedClaim reservedForJob(ClaimKey key, String device) {
    return new AllocatedClaim(
        key.uid(),
        ClaimsRig.NAMESPACE,
        key.name(),
        true,
        List.of(
            new Result("gpu", ClaimsRig.DRIVER, ClaimsRig.POOL, device, false, "mig.nvidia.com")),
        List.of(),
        List.of(new AllocatedClaim.Consumer("pods", "job", "pod-uid")));
  }

  private static ConsumerPod job(List<ConsumerPod.Container> containers) {
    return new ConsumerPod(
        "pod-uid",
        ClaimsRig.NAMESPACE,
        "job",
        List.of(new ConsumerPod.PodClaim("gpu", "")),
        List.of(new ConsumerPod.ClaimStatus("gpu", "claim-c1")),
        containers);
  }
}
