package io.migd.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.ownership.ClaimedDevices;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The pool as the surface hands it on (issue 29): numbered, newest last, kept through a failed
 * reconcile, facts read again when a reset renumbers the GPUs, XID taints gone with their instance.
 */
class PoolSurfaceTest {
  private static final GpuFacts H100_0 = Facts.of("H100-SXM5-80GB", 0);
  private static final GpuFacts H100_1 = Facts.of("H100-SXM5-80GB", 1);
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final Taint XID_94 =
      new Taint(DeviceTaints.XID_KEY, "94", Taint.Effect.NO_SCHEDULE);

  private static ObservedNode node(ObservedGpu... gpus) {
    return new ObservedNode(List.of(gpus));
  }

  /**
   * A claim thread's rebuild whose pool is still being handed on when a plan withdraws a device:
   * the pool without the device is handed on after it, never before (before, each thread handed its
   * own pool on after leaving the build's lock, so the older one could land last and advertise the
   * device again).
   */
  @Test
  void aPoolBuiltBeforeAWithdrawalNeverLandsAfterThePoolWithoutTheDevice() throws Exception {
    String device = "gpu-0-mig-3g40gb-9-4";
    var holdFirst = new AtomicBoolean();
    var inSink = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    var pool =
        new Surfaced(
                ClaimedDevices.NONE,
                publication -> {
                  if (holdFirst.compareAndSet(true, false)) {
                    inSink.countDown();
                    await(release);
                  }
                })
            .knows(H100_0);
    pool.reconciled(node(Facts.migOn(H100_0, Facts.instance(H100_0, 2, "3g.40gb", 4))));
    assertThat(pool.last().pool().content().device(device)).isPresent();

    holdFirst.set(true);
    var claimThread = CompletableFuture.runAsync(() -> pool.surface.rebuild());
    inSink.await();
    long without = pool.surface.withdraw(List.of(device)).orElseThrow();
    release.countDown();
    claimThread.get();

    assertThat(pool.published.stream().map(PoolSurface.Publication::number).toList())
        .isSorted()
        .doesNotHaveDuplicates();
    assertThat(pool.last().number()).isEqualTo(without);
    assertThat(pool.last().pool().content().device(device)).isEmpty();
    assertThat(pool.surface.current().device(device)).isEmpty();
  }

  /**
   * Eight claims unprepared in one kubelet call: the pools built claim by claim are current at
   * once, but only the last goes on, when the call ends (before, each went on, and the slices
   * changed for seconds through states an allocation could take a placement from). A withdrawal
   * during the call is not held back.
   */
  @Test
  void aKubeletCallHandsOnOnlyThePoolAfterItAndAWithdrawalAtOnce() {
    var pool = new Surfaced().knows(H100_0);
    pool.reconciled(
        node(
            Facts.migOn(
                H100_0,
                Facts.instance(H100_0, 1, "1g.10gb", 0),
                Facts.instance(H100_0, 2, "1g.10gb", 1))));
    int before = pool.published.size();

    pool.surface.heldWhile(
        () -> {
          pool.node.set(node(Facts.migOn(H100_0, Facts.instance(H100_0, 2, "1g.10gb", 1))));
          pool.surface.rebuild();
          assertThat(pool.surface.current().device("gpu-0-mig-1g10gb-19-0")).isEmpty();
          pool.node.set(node(Facts.migOn(H100_0, Facts.instance(H100_0, 3, "1g.10gb", 2))));
          pool.surface.rebuild();
          assertThat(pool.published).hasSize(before);
          return null;
        });

    assertThat(pool.published).hasSize(before + 1);
    assertThat(pool.last().pool().content()).isEqualTo(pool.surface.current());
    assertThat(pool.last().pool().content().devices())
        .extracting(PoolDevice::name)
        .containsExactly("gpu-0-mig-1g10gb-19-2");

    pool.surface.heldWhile(
        () -> {
          pool.surface.withdraw(List.of("gpu-0-mig-1g10gb-19-2"));
          assertThat(pool.published).hasSize(before + 2);
          return null;
        });
    assertThat(pool.last().pool().content().devices()).isEmpty();
  }

  @Test
  void nothingCanBeWithdrawnBeforeTheFirstOutcome() {
    var pool = new Surfaced().knows(H100_0);

    assertThat(pool.surface.withdraw(List.of("gpu-0"))).isEmpty();
    assertThat(pool.published).isEmpty();
  }

  /**
   * Before, the failed outcome made every dynamic GPU static: its counter set and MIG devices went.
   */
  @Test
  void aFailedReconcileKeepsTheLastPool() {
    var pool = new Surfaced().knows(H100_0);
    pool.reconciled(node(Facts.migOff(H100_0)), Set.of(GPU0));
    PoolContent dynamic = pool.surface.current();
    assertThat(Pools.counterSets(pool.surface.built())).hasSize(1);
    assertThat(dynamic.device("gpu-0-mig-1g10gb-19-0")).isPresent();
    int publications = pool.published.size();

    pool.failed("nvmlDeviceGetCount_v2 returned NVML_ERROR_UNKNOWN");
    pool.surface.rebuild();

    assertThat(pool.surface.current()).isEqualTo(dynamic);
    assertThat(pool.published).hasSize(publications + 1);
    assertThat(pool.last().pool().content()).isEqualTo(dynamic);
  }

  /**
   * A reset that renumbers the GPUs: the facts, kept by UUID, are read again at the new index
   * (before, both GPUs were left out of the pool for good).
   */
  @Test
  void factsAreReadAgainWhenAResetRenumbersTheGpus() {
    var pool = new Surfaced().knows(H100_0, H100_1);
    pool.reconciled(node(Facts.migOff(H100_0), Facts.migOff(H100_1)));
    String firstUuid = H100_0.uuid();
    assertThat(uuidOf(pool, "gpu-0")).isEqualTo(firstUuid);

    ObservedGpu firstNowAt1 = Surfaced.at(pool.node.get().gpus().get(0), 1);
    ObservedGpu secondNowAt0 = Surfaced.at(pool.node.get().gpus().get(1), 0);
    pool.reconciled(node(secondNowAt0, firstNowAt1));

    assertThat(Pools.deviceNames(pool.last().pool(), 0)).containsExactly("gpu-0");
    assertThat(Pools.deviceNames(pool.last().pool(), 1)).containsExactly("gpu-1");
    assertThat(uuidOf(pool, "gpu-0")).isEqualTo(H100_1.uuid());
    assertThat(uuidOf(pool, "gpu-1")).isEqualTo(firstUuid);
  }

  /**
   * GPU instance ids are reused: an XID on instance 2 goes with it, and the next instance NVML
   * numbers 2 is published untainted (before, it inherited the taint).
   */
  @Test
  void anXidTaintGoesWithItsInstanceAndNeverTaintsTheNextOneOfTheSameId() {
    var pool = new Surfaced().knows(H100_0);
    pool.reconciled(node(Facts.migOn(H100_0, Facts.instance(H100_0, 2, "3g.40gb", 4))));
    pool.health.onXid(GPU0, 2, 94, Instant.EPOCH);
    pool.surface.rebuild();
    assertThat(pool.surface.current().device("gpu-0-mig-3g40gb-9-4").orElseThrow().taints())
        .containsExactly(XID_94);

    pool.reconciled(node(Facts.migOn(H100_0)));
    pool.reconciled(node(Facts.migOn(H100_0, Facts.instance(H100_0, 2, "1g.10gb", 0))));

    assertThat(pool.surface.current().device("gpu-0-mig-1g10gb-19-0").orElseThrow().taints())
        .isEmpty();
  }

  private static String uuidOf(Surfaced pool, String device) {
    return ((Attribute.Text)
            pool.surface.current().device(device).orElseThrow().attributes().get("uuid"))
        .value();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
