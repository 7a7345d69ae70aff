package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The progress a surface shows while the loop reshapes a simulated A100: the step in flight, a new
 * intent accepted during a reshape as pending, another pass towards the newest intent, whose
 * outcome is the last one published, and the time each step took.
 */
class LayoutProgressIT {
  @Test
  void aNewIntentDuringAReshapeIsPendingThenReachedByAnotherPass() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    var progress = new LayoutProgress();
    var stepHeld = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    ProgressListener holdFirstStep =
        new ProgressListener() {
          @Override
          public void stepStarted(Step step) {
            if (stepHeld.getCount() > 0) {
              stepHeld.countDown();
              awaitRelease(release);
            }
          }
        };
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var intent = new AtomicReference<>(Desired.config(Desired.Source.FILE, "all-balanced", 1));
      var published = new CopyOnWriteArrayList<Long>();
      var settings =
          new ReconcileSettings(Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(200));
      try (var loop =
          new ReconcileLoop(
              node.reconciler(
                  shipped,
                  RebootPolicy.DISABLED,
                  ProgressListener.all(List.of(progress, holdFirstStep))),
              () -> {
                Desired desired = intent.get();
                progress.reconcileStarted(desired);
                return desired;
              },
              settings,
              List.of(progress, (desired, outcome) -> published.add(outcome.generation())))) {
        loop.start();
        assertThat(stepHeld.await(30, TimeUnit.SECONDS)).isTrue();

        var during = progress.snapshot(intent.get());
        assertThat(during.state()).isEqualTo("applying");
        assertThat(during.inFlight()).singleElement().isInstanceOf(Step.EnableMig.class);
        intent.set(Desired.config(Desired.Source.REST, "all-7g.40gb", 2));
        loop.trigger();
        var accepted = progress.snapshot(intent.get());
        assertThat(accepted.state()).isEqualTo("pending");
        release.countDown();

        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> loop.lastOutcome().map(Outcome::generation).orElse(0L) == 2);
        var after = progress.snapshot(intent.get());
        assertThat(after.state()).as(after.reason()).isEqualTo("success");
        assertThat(published).endsWith(2L).contains(1L);
        assertThat(after.inFlight()).isEmpty();
        assertThat(after.plan()).isNotEmpty().allMatch(LayoutProgress.TimedStep::ran);
        assertThat(after.reshapeEnded()).isTrue();
        assertThat(after.plan())
            .extracting(LayoutProgress.TimedStep::step)
            .anyMatch(
                s ->
                    s instanceof Step.CreateGpuInstance c
                        && c.profile().toString().equals("7g.40gb"));
      }
    }
  }

  @Test
  void aPlanTheRecheckAbandonsIsNotShownAsThePlan() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    var progress = new LayoutProgress();
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var balanced = Desired.config(Desired.Source.FILE, "all-balanced", 1);
      assertThat(node.reconciler(shipped, RebootPolicy.DISABLED).reconcile(balanced).succeeded())
          .isTrue();
      int gi = node.observe().gpus().getFirst().gpuInstances().getFirst().id();
      // a pod is handed a slice between the plan and its recheck, as a kubelet Allocate can be
      var podStarted = new AtomicBoolean();
      UsageSource pods =
          observed ->
              podStarted.get()
                  ? new Usage(
                      Map.of(
                          new Usage.SliceKey(new GpuIndex(0), gi, Usage.ALL_COMPUTE_INSTANCES),
                          List.of("pod ml/trainer-0")))
                  : Usage.NONE;
      ProgressListener allocateMeanwhile =
          new ProgressListener() {
            @Override
            public void planMade(GpuIndex gpu, Plan plan) {
              podStarted.set(true);
            }
          };
      var whole = Desired.config(Desired.Source.REST, "all-7g.40gb", 2);

      progress.reconcileStarted(whole);
      Outcome outcome =
          Reconciler.over(
                  node.nvml,
                  SimulatedNode.CATALOG,
                  shipped::config,
                  pods,
                  ProgressListener.all(List.of(allocateMeanwhile, progress)),
                  GpuReset.NONE,
                  RebootPolicy.DISABLED)
              .reconcile(whole);
      progress.reconciled(whole, outcome);

      assertThat(outcome.state()).isEqualTo(GpuResult.State.BLOCKED);
      var shown = progress.snapshot(whole);
      assertThat(shown.state()).isEqualTo("blocked");
      assertThat(shown.plan()).as("the steps of the abandoned plan").isEmpty();
      assertThat(shown.inFlight()).isEmpty();
    }
  }

  private static void awaitRelease(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
