package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.execute.ProgressListener;
import io.migd.plan.Step;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

  private static void awaitRelease(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
