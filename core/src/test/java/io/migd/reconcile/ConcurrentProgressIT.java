package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.execute.ListenerFailures;
import io.migd.execute.ProgressListener;
import io.migd.execute.ProgressListeners;
import io.migd.layout.GpuIndex;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A progress listener told without the one-event-at-a-time lock ({@link
 * Reconciler#overConcurrent}), as the daemon tells its MPS daemons: while it holds one GPU's event
 * (the MPS daemons running {@code quit}, up to 30 s), another GPU's plan runs to its end, and the
 * listeners behind the lock still see each GPU's events one at a time and in order.
 */
class ConcurrentProgressIT {
  private static final Path DEFAULT_CONFIG = Path.of("..", "profiles", "configs", "default.yaml");
  private static final String TWO_A100 = "A100-SXM4-40GB,A100-SXM4-40GB";
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);

  private static MigConfigFile shipped;
  private static SimulatedNode two;

  @BeforeAll
  static void start() throws Exception {
    shipped = MigConfigParser.parse(DEFAULT_CONFIG);
    two = SimulatedNode.start(TWO_A100);
  }

  @AfterAll
  static void stop() {
    two.close();
  }

  @Test
  void oneGpusSlowMpsQuitDoesNotHoldUpTheOtherGpusPlan() throws Exception {
    two.reset(TWO_A100);
    var mps = new SlowQuit();
    var log = new EventLog();
    var progress =
        new ProgressListeners(
            List.of(
                new ProgressListeners.Named("mps-daemons", mps),
                new ProgressListeners.Named("log", ProgressListener.oneAtATime(log))),
            ListenerFailures.NONE);
    Reconciler reconciler =
        Reconciler.overConcurrent(
            two.observer,
            two.nvml,
            SimulatedNode.CATALOG,
            shipped::config,
            Reconciler.processUsage(two.nvml),
            progress,
            GpuReset.NONE,
            RebootPolicy.DISABLED);

    try (var thread = Executors.newSingleThreadExecutor()) {
      Future<Outcome> reshape =
          thread.submit(
              () -> reconciler.reconcile(Desired.config(Desired.Source.FILE, "all-1g.5gb", 1)));
      try {
        await("GPU 0's quit under way").until(() -> mps.gpu0Held.getCount() == 0);
        await("GPU 1's plan run to its end while GPU 0's quit is held")
            .until(() -> log.planEnded(GPU1));
        assertThat(log.events(GPU0)).as("GPU 0's events behind its held quit").isEmpty();
      } finally {
        mps.release.countDown();
      }
      Outcome outcome = reshape.get(60, TimeUnit.SECONDS);
      assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    }

    assertThat(log.overlaps.get()).as("events the locked listener was told at once").isZero();
    for (GpuIndex gpu : List.of(GPU0, GPU1)) {
      List<String> mine = log.events(gpu);
      assertThat(mine.getFirst()).as("GPU %s's first event", gpu).startsWith("plan");
      for (int i = 1; i < mine.size(); i += 2) {
        assertThat(mine.get(i + 1))
            .as("GPU %s: the event after %s", gpu, mine.get(i))
            .isEqualTo(mine.get(i).replace("start ", "done "));
      }
      assertThat(log.planEnded(gpu)).as("GPU %s's plan ran to its end", gpu).isTrue();
    }
  }

  /**
   * Stands in for the MPS daemons: GPU 0's plan announcement is held until released, as a slow
   * {@code quit} would hold it; GPU 1's waits until GPU 0's is held, so the GPUs overlap.
   */
  private static final class SlowQuit implements ProgressListener {
    final CountDownLatch gpu0Held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void planMade(GpuIndex gpu, Plan plan) {
      if (gpu.equals(GPU0)) {
        gpu0Held.countDown();
        awaitOrFail(release);
      } else {
        awaitOrFail(gpu0Held);
      }
    }

    private static void awaitOrFail(CountDownLatch latch) {
      try {
        if (!latch.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Each GPU's events in the order told, and whether two calls ever overlapped. */
  private static final class EventLog implements ProgressListener {
    private final Map<GpuIndex, List<String>> events = new ConcurrentHashMap<>();
    private final Map<GpuIndex, Integer> planned = new ConcurrentHashMap<>();
    private final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();

    private void record(GpuIndex gpu, String what) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      events.computeIfAbsent(gpu, g -> Collections.synchronizedList(new ArrayList<>())).add(what);
      inside.decrementAndGet();
    }

    List<String> events(GpuIndex gpu) {
      return List.copyOf(events.getOrDefault(gpu, List.of()));
    }

    /** The GPU's plan was announced and every one of its steps is done. */
    boolean planEnded(GpuIndex gpu) {
      Integer steps = planned.get(gpu);
      return steps != null
          && events(gpu).stream().filter(e -> e.startsWith("done ")).count() == steps;
    }

    @Override
    public void planMade(GpuIndex gpu, Plan plan) {
      planned.put(gpu, plan.steps().size());
      record(gpu, "plan " + plan.steps().size());
    }

    @Override
    public void stepStarted(Step step) {
      record(step.gpu(), "start " + step);
    }

    @Override
    public void stepDone(Step step) {
      record(step.gpu(), "done " + step);
    }
  }
}
