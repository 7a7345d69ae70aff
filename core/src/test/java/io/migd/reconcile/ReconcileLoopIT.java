package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
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

  private static Outcome awaitSuccess(ReconcileLoop loop) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      var last = loop.lastOutcome();
      if (last.isPresent() && last.get().succeeded()) {
        return last.get();
      }
      Thread.onSpinWait();
      Thread.sleep(10);
    }
    throw new AssertionError("the loop did not reach the target: " + loop.lastOutcome());
  }

  private static Outcome awaitGeneration(ReconcileLoop loop, long generation)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      var last = loop.lastOutcome();
      if (last.isPresent() && last.get().generation() == generation) {
        return last.get();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no outcome of generation " + generation);
  }
}
