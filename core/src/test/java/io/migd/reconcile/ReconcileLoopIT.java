package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The loop on a simulated node: it runs at start, on triggers, and retries after failure. */
class ReconcileLoopIT {
  @Test
  void runsAtStartOnTriggersAndRetriesUntilTheTargetIsReached() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var intent = new AtomicReference<>(Desired.config(Desired.Source.FILE, "all-balanced", 1));
      var outcomes = new CopyOnWriteArrayList<Outcome>();
      var settings =
          new ReconcileSettings(Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(200));
      try (var loop =
          new ReconcileLoop(
              node.reconciler(shipped, RebootPolicy.DISABLED),
              intent::get,
              settings,
              List.of((desired, outcome) -> outcomes.add(outcome)))) {
        node.sim.require("attach", "--gpu", "0", "--pid", "7", "--mem", "10");
        loop.start();
        Outcome first = loop.awaitNextOutcome(Duration.ofSeconds(30)).orElseThrow();
        assertThat(first.state()).isEqualTo(GpuResult.State.BLOCKED);

        node.sim.require("detach", "--pid", "7");
        // no trigger: the backoff retry alone must get there
        Outcome done = awaitSuccess(loop);
        assertThat(done.generation()).isEqualTo(1);

        intent.set(Desired.config(Desired.Source.REST, "all-7g.40gb", 2));
        loop.trigger();
        Outcome reshaped = awaitGeneration(loop, 2);
        assertThat(reshaped.succeeded()).as(reshaped.reason()).isTrue();
        assertThat(outcomes).hasSizeGreaterThanOrEqualTo(3);
      }
    }
  }

  @Test
  void aRunThatThrowsAnErrorIsRetriedAndTheLoopGoesOn() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var told = new AtomicInteger();
      var intentCalls = new AtomicInteger();
      Supplier<Desired> intent =
          () -> {
            if (intentCalls.incrementAndGet() == 2) {
              throw new StackOverflowError("the intent failed once");
            }
            return Desired.config(Desired.Source.FILE, "all-7g.40gb", 1);
          };
      OutcomeListener broken =
          (desired, outcome) -> {
            told.incrementAndGet();
            throw new AssertionError("a listener that always throws an Error");
          };
      var settings =
          new ReconcileSettings(Duration.ofHours(1), Duration.ofMillis(20), Duration.ofMillis(50));
      try (var loop =
          new ReconcileLoop(
              node.reconciler(shipped, RebootPolicy.DISABLED), intent, settings, List.of(broken))) {
        loop.start();
        // no trigger: the backoff alone brings the runs after the ones that threw
        await().atMost(Duration.ofSeconds(30)).until(() -> told.get() >= 3);
        assertThat(intentCalls.get()).isGreaterThanOrEqualTo(4);
        assertThat(loop.lastOutcome()).isPresent();
      }
    }
  }

  @Test
  void aListenerThatAlwaysThrowsStopsNeitherTheListenersAfterItNorLiveness() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var toldAfter = new AtomicInteger();
      List<OutcomeListener> listeners =
          List.of(
              (desired, outcome) -> {
                throw new IllegalStateException("a surface that always throws");
              },
              (desired, outcome) -> toldAfter.incrementAndGet());
      Duration liveness = Duration.ofMillis(500);
      var settings =
          new ReconcileSettings(
              Duration.ofHours(1), Duration.ofMillis(20), Duration.ofMillis(40), liveness);
      try (var loop =
          new ReconcileLoop(
              node.reconciler(shipped, RebootPolicy.DISABLED),
              () -> Desired.config(Desired.Source.FILE, "all-7g.40gb", 1),
              settings,
              listeners)) {
        loop.start();
        // the failing listener makes the loop retry; 30 retries at 20 ms or more each outlast the
        // liveness timeout, so liveness is still up only because those runs completed
        await().atMost(Duration.ofSeconds(60)).until(() -> toldAfter.get() >= 30);
        assertThat(loop.isLive()).isTrue();
        assertThat(loop.lastOutcome().orElseThrow().succeeded()).isTrue();
      }
    }
  }

  @Test
  void livenessTurnsDownWhenRunsStopCompletingAndUpOnceOneCompletes() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    try (var node = SimulatedNode.start("A100-SXM4-40GB")) {
      var hang = new AtomicBoolean();
      var release = new Semaphore(0);
      Supplier<Desired> intent =
          () -> {
            if (hang.get()) {
              release.acquireUninterruptibly();
            }
            return Desired.none();
          };
      var settings =
          new ReconcileSettings(
              Duration.ofHours(1),
              Duration.ofMillis(50),
              Duration.ofMillis(100),
              Duration.ofMillis(500));
      try (var loop =
          new ReconcileLoop(
              node.reconciler(shipped, RebootPolicy.DISABLED), intent, settings, List.of())) {
        loop.start();
        assertThat(loop.awaitFirstOutcome(Duration.ofSeconds(30))).isPresent();
        assertThat(loop.isLive()).isTrue();

        hang.set(true);
        loop.trigger();
        await().atMost(Duration.ofSeconds(30)).until(() -> !loop.isLive());

        hang.set(false);
        release.release();
        await().atMost(Duration.ofSeconds(30)).until(loop::isLive);
      }
    }
  }

  private static Outcome awaitSuccess(ReconcileLoop loop) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(loop::lastOutcome, last -> last.isPresent() && last.get().succeeded())
        .orElseThrow();
  }

  private static Outcome awaitGeneration(ReconcileLoop loop, long generation) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(loop::lastOutcome, last -> last.isPresent() && last.get().generation() == generation)
        .orElseThrow();
  }
}
