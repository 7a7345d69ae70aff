package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlReturn;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node snapshot the scrape and the REST reads use: it is what the last outcome observed (errors
 * included), one GPU is observed again on demand (after an XID), the processes are read live, and a
 * read during a GPU reset gives up naming the reset instead of waiting for it to end.
 */
class NodeSnapshotIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);

  private final SimulatedNode node = SimulatedNode.start("A100-SXM4-40GB,A100-SXM4-40GB");
  private final ResetsInProgress resets = new ResetsInProgress(Clock.systemUTC());
  private final NodeSnapshot snapshot =
      new NodeSnapshot(node.observer, node.nvml, resets, Duration.ofMillis(100));

  @AfterEach
  void stop() {
    node.close();
  }

  @Test
  void aReadDuringAHeldResetGivesUpNamingTheResetWhileTheResetIsStillHeld() throws Exception {
    ObservedGpu gpu0 = snapshot.latest().gpu(GPU0).orElseThrow();
    var resetHeld = new CountDownLatch(1);
    var letGo = new CountDownLatch(1);
    GpuReset held =
        resets.tracking(
            gpu ->
                node.nvml.whileReleased(
                    () -> {
                      resetHeld.countDown();
                      await(letGo);
                      return GpuReset.Result.of(
                          node.sim.resetGpu(gpu.index().value()).succeeded(), "reset");
                    }));
    var reset = CompletableFuture.supplyAsync(() -> held.reset(gpu0));
    assertThat(resetHeld.await(30, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> snapshot.live(gpu0))
        .isInstanceOfSatisfying(
            ResetInProgressException.class,
            e -> {
              assertThat(e.resetting(GPU0)).isTrue();
              assertThat(e.resetting(GPU1)).isFalse();
            })
        .hasMessageContaining("GPU 0 (" + gpu0.pci().busId() + ") is being reset");
    assertThatThrownBy(() -> snapshot.withLiveProcesses(snapshot.latest()))
        .isInstanceOf(ResetInProgressException.class);
    assertThat(reset).as("both answers came while the reset was held").isNotDone();

    letGo.countDown();
    assertThat(reset.get(30, TimeUnit.SECONDS)).isInstanceOf(GpuReset.Result.Done.class);
    assertThat(resets.now()).isEmpty();
    assertThat(snapshot.live(gpu0).memory().totalBytes()).isPositive();
  }

  @Test
  void itIsTheLastOutcomesObservationAndOneGpuObservedAgainAfterAnXid() {
    node.sim.require("faults", "nvmlDeviceGetMigMode@1=NVML_ERROR_GPU_IS_LOST");
    Reconciler reconciler = node.reconciler(MigConfigFile.of(List.of()), RebootPolicy.DISABLED);
    Outcome outcome = reconciler.reconcile(Desired.none());
    snapshot.reconciled(Desired.none(), outcome);

    ObservedNode seen = snapshot.latest();
    assertThat(seen.gpu(GPU0)).isPresent();
    assertThat(seen.unobserved().get(GPU1).code()).isEqualTo(NvmlReturn.GPU_IS_LOST);
    assertThat(seen.unobserved().get(GPU1).function()).isEqualTo("nvmlDeviceGetMigMode");

    node.sim.require("faults", "");
    snapshot.observeAgain(GPU1);
    assertThat(snapshot.latest().gpu(GPU1)).isPresent();
    assertThat(snapshot.latest().unobserved()).isEmpty();

    node.sim.require("attach", "--gpu", "1", "--pid", "4242", "--mem", "100", "--name", "train");
    assertThat(snapshot.latest().gpu(GPU1).orElseThrow().processes()).isEmpty();
    assertThat(snapshot.withLiveProcesses(snapshot.latest()).gpu(GPU1).orElseThrow().processes())
        .singleElement()
        .satisfies(p -> assertThat(p.pid()).isEqualTo(4242));
  }

  @Test
  void anOutcomeObservedBeforeAChangeNeverTakesBackTheGpuObservedAgainAfterIt() throws Exception {
    MigConfigFile configs =
        MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    Reconciler reconciler = node.reconciler(configs, RebootPolicy.DISABLED);
    Desired small = Desired.config(Desired.Source.REST, "all-1g.5gb", 1);
    snapshot.reconciled(small, reconciler.reconcile(small));
    assertThat(profiles(snapshot.latest(), GPU0)).hasSize(7).containsOnly("1g.5gb");

    // a reconcile observes GPU 0 as it is now (in sync, so its outcome keeps that observation) ...
    Outcome observedBefore = reconciler.reconcile(small);
    // ... and before its outcome arrives, the GPU changes and is observed again (as an unprepare
    // destroying a claim's instance does)
    Desired balanced = Desired.config(Desired.Source.REST, "all-balanced", 2);
    reconciler.reconcile(balanced);
    snapshot.observeAgain(GPU0);
    List<String> now = profiles(node.observe(), GPU0);
    assertThat(now).isNotEqualTo(profiles(observedBefore.observed(), GPU0));

    snapshot.reconciled(small, observedBefore);

    assertThat(profiles(snapshot.latest(), GPU0))
        .as("GPU 0 as NVML shows it, not as the late outcome observed it")
        .isEqualTo(now);
    assertThat(profiles(snapshot.latest(), GPU1))
        .as("a GPU nobody observed again is the outcome's")
        .isEqualTo(profiles(observedBefore.observed(), GPU1));
  }

  private static List<String> profiles(ObservedNode node, GpuIndex gpu) {
    return node.gpu(gpu).orElseThrow().gpuInstances().stream()
        .map(gi -> gi.profile().toString())
        .sorted()
        .toList();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the reset go");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
