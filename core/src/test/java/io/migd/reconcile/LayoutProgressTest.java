package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The tracker on its own: states by generation, durations, and listener calls from many threads.
 */
class LayoutProgressTest {
  private static final Desired GEN_1 = Desired.config(Desired.Source.FILE, "all-balanced", 1);
  private static final Desired GEN_2 = Desired.config(Desired.Source.REST, "all-1g.5gb", 2);

  private final AtomicLong clock = new AtomicLong();
  private final LayoutProgress progress = new LayoutProgress(clock::get);

  @Test
  void isPendingUntilTheReconcileOfTheNewestIntentStarts() {
    assertThat(progress.snapshot(GEN_1).state()).isEqualTo("pending");
    progress.reconcileStarted(GEN_1);
    assertThat(progress.snapshot(GEN_1).state()).isEqualTo("applying");
    progress.reconciled(GEN_1, success(1));
    assertThat(progress.snapshot(GEN_1).state()).isEqualTo("success");

    assertThat(progress.snapshot(GEN_2).state()).isEqualTo("pending");
    assertThat(progress.snapshot(GEN_2).outcome()).map(Outcome::generation).hasValue(1L);
  }

  @Test
  void aResyncThatPlansNothingKeepsTheStateAndTheLastReshape() {
    progress.reconcileStarted(GEN_1);
    progress.planMade(new GpuIndex(0), new Plan(List.of(new Step.EnableMig(new GpuIndex(0)))));
    run(new Step.EnableMig(new GpuIndex(0)), 5);
    progress.reconciled(GEN_1, success(1));

    progress.reconcileStarted(GEN_1);

    var resync = progress.snapshot(GEN_1);
    assertThat(resync.state()).isEqualTo("success");
    assertThat(resync.plan())
        .singleElement()
        .extracting(LayoutProgress.TimedStep::took)
        .isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void timesEveryStepWhenGpusReportFromSeveralThreads() throws Exception {
    progress.reconcileStarted(GEN_1);
    int gpus = 8;
    var steps = new ArrayList<List<Step>>();
    for (int g = 0; g < gpus; g++) {
      var gpu = new GpuIndex(g);
      var plan = new ArrayList<Step>();
      plan.add(new Step.EnableMig(gpu));
      for (int start = 0; start < 7; start++) {
        plan.add(
            new Step.CreateGpuInstance(
                gpu, ProfileName.parse("1g.5gb"), 19, new Placement(start, 1)));
      }
      steps.add(plan);
      progress.planMade(gpu, new Plan(plan));
    }
    try (var pool = Executors.newFixedThreadPool(gpus)) {
      var done = new ArrayList<Future<?>>();
      for (List<Step> plan : steps) {
        done.add(
            pool.submit(
                () ->
                    plan.forEach(
                        step -> {
                          progress.stepStarted(step);
                          assertThat(progress.snapshot(GEN_1).inFlight()).contains(step);
                          clock.addAndGet(1_000_000);
                          progress.stepDone(step);
                        })));
      }
      for (Future<?> f : done) {
        f.get();
      }
    }
    var snapshot = progress.snapshot(GEN_1);
    assertThat(snapshot.inFlight()).isEmpty();
    assertThat(snapshot.plan()).hasSize(gpus * 8).allMatch(LayoutProgress.TimedStep::ran);
    assertThat(snapshot.reshapeEnded()).isTrue();
    assertThat(snapshot.total()).isPositive();
  }

  private void run(Step step, long millis) {
    progress.stepStarted(step);
    clock.addAndGet(Duration.ofMillis(millis).toNanos());
    progress.stepDone(step);
  }

  private static Outcome success(long generation) {
    var results = new TreeMap<GpuIndex, GpuResult>();
    results.put(new GpuIndex(0), new GpuResult.InSync());
    return new Outcome(generation, results, Instant.EPOCH);
  }
}
