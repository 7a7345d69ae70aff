package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which Events a sequence of outcomes brings: one per transition, none per retry or resync. */
class NodeEventsTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final Step STEP = new Step.EnableMig(GPU0);

  private final NodeEvents events = new NodeEvents();

  private static Desired label(String config, long generation) {
    return Desired.config(Desired.Source.LABEL, config, generation);
  }

  private static Outcome outcome(GpuResult result) {
    var results = new TreeMap<GpuIndex, GpuResult>();
    results.put(GPU0, result);
    return new Outcome(1, results, Instant.EPOCH);
  }

  private static Outcome inSync() {
    return outcome(new GpuResult.InSync());
  }

  private static Outcome applied() {
    return outcome(new GpuResult.Applied(new Plan(List.of(STEP)), Duration.ofMillis(5)));
  }

  private static Outcome blocked() {
    return outcome(new GpuResult.Blocked(List.of("process 7 (python)"), "in use by process 7"));
  }

  private static Outcome stepFailed() {
    return outcome(new GpuResult.Failed(STEP, NvmlReturn.UNKNOWN, "step enable MIG failed"));
  }

  private List<String> reasons(Desired desired, Outcome outcome) {
    return events.after(desired, outcome).stream().map(NodeEvents.Event::reason).toList();
  }

  @Test
  void aNodeInSyncAtStartAndAtEveryResyncGetsNoEvent() {
    assertThat(reasons(label("a", 1), inSync())).isEmpty();
    assertThat(reasons(label("a", 1), inSync())).isEmpty();
  }

  @Test
  void aChangeIsReconfiguringThenReconfiguredWithTheOutcomesReason() {
    var sent = events.after(label("all-1g.5gb", 2), applied());
    assertThat(sent)
        .extracting(NodeEvents.Event::reason)
        .containsExactly("Reconfiguring", "Reconfigured");
    assertThat(sent.getFirst().message())
        .isEqualTo("applying config all-1g.5gb (from the label, generation 2)");
    assertThat(sent.getFirst().warning()).isFalse();
    assertThat(sent.get(1).message()).isEqualTo("every GPU matches the desired layout");
    assertThat(reasons(label("all-1g.5gb", 2), inSync())).isEmpty();
  }

  @Test
  void aGenerationMadeForReplacedGpusSaysOnceWhichWereReplaced() {
    Desired replaced =
        label("all-1g.5gb", 4)
            .forReplacedGpus(
                java.util.Map.of(0, "GPU-new"),
                java.util.Map.of(0, "GPU 0 was replaced: GPU-old -> GPU-new"));
    var sent = events.after(replaced, applied());
    assertThat(sent)
        .extracting(NodeEvents.Event::reason)
        .containsExactly("GpuReplaced", "Reconfiguring", "Reconfigured");
    assertThat(sent.getFirst().message())
        .isEqualTo(
            "GPU 0 was replaced: GPU-old -> GPU-new; applying config all-1g.5gb (from the label,"
                + " generation 5) to the GPUs present");
    assertThat(reasons(replaced, inSync())).as("said once").isEmpty();
  }

  @Test
  void aPlanThatStartsIsReconfiguringAtOnceAndTheOutcomeOnlyEndsIt() {
    assertThat(events.planStarted(label("all-1g.5gb", 2)))
        .map(NodeEvents.Event::reason)
        .contains("Reconfiguring");
    assertThat(events.planStarted(label("all-1g.5gb", 2))).as("a second GPU's plan").isEmpty();
    assertThat(reasons(label("all-1g.5gb", 2), applied())).containsExactly("Reconfigured");
    assertThat(events.planStarted(label("all-3g.20gb", 3))).isPresent();
  }

  @Test
  void blockedOnceThenReconfiguringWhenTheHolderLetsGo() {
    var sent = events.after(label("b", 3), blocked());
    assertThat(sent).extracting(NodeEvents.Event::reason).containsExactly("ReconfigureBlocked");
    assertThat(sent.getFirst().warning()).isTrue();
    assertThat(sent.getFirst().message()).isEqualTo("GPU 0: in use by process 7");
    assertThat(reasons(label("b", 3), blocked())).as("a retry").isEmpty();
    assertThat(reasons(label("b", 3), applied())).containsExactly("Reconfiguring", "Reconfigured");
  }

  @Test
  void aFailingStepRetriedIsOneReconfiguringAndOneFailure() {
    assertThat(reasons(label("c", 4), stepFailed()))
        .containsExactly("Reconfiguring", "ReconfigureFailed");
    assertThat(reasons(label("c", 4), stepFailed())).as("a retry").isEmpty();
    assertThat(reasons(label("c", 4), stepFailed())).as("a retry").isEmpty();
    assertThat(reasons(label("c", 4), applied())).containsExactly("Reconfigured");
  }

  @Test
  void aNewGenerationAfterAFailureReconfiguresAgain() {
    assertThat(reasons(label("c", 4), stepFailed()))
        .containsExactly("Reconfiguring", "ReconfigureFailed");
    assertThat(reasons(label("d", 5), stepFailed()))
        .as("the new intent was tried and failed too")
        .containsExactly("Reconfiguring", "ReconfigureFailed");
    assertThat(reasons(label("d", 5), outcome(new GpuResult.Infeasible("no fit")))).isEmpty();
  }

  @Test
  void anOutcomeThatCouldNotListTheGpusIsAFailureUntilItCanAgain() {
    assertThat(reasons(label("a", 1), Outcome.failed(1, "NVML is not loaded", Instant.EPOCH)))
        .containsExactly("ReconfigureFailed");
    assertThat(reasons(label("a", 1), inSync())).containsExactly("Reconfigured");
  }

  @Test
  void driftCorrectedAtRestIsAReconfiguration() {
    assertThat(reasons(label("a", 1), inSync())).isEmpty();
    assertThat(reasons(label("a", 1), applied())).containsExactly("Reconfiguring", "Reconfigured");
  }
}
