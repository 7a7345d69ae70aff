package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ProgressListener;
import io.migd.execute.ProgressListeners;
import io.migd.layout.GpuIndex;
import io.migd.plan.Plan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OutcomeListenersTest {
  private static final Outcome OUTCOME = new Outcome(3, new TreeMap<>(), Instant.EPOCH);

  @Test
  void tellsEveryListenerInOrderAndCountsTheOneThatThrowsByName() {
    var told = new ArrayList<String>();
    var failed = new ArrayList<String>();
    var listeners =
        new OutcomeListeners(
            List.of(
                new OutcomeListeners.Named("first", (d, o) -> told.add("first")),
                new OutcomeListeners.Named(
                    "broken",
                    (d, o) -> {
                      throw new StackOverflowError("a bug in a surface");
                    }),
                new OutcomeListeners.Named("last", (d, o) -> told.add("last"))),
            (listener, cause) -> failed.add(listener + ": " + cause.getMessage()));

    boolean allTook = listeners.tell(Desired.none(), OUTCOME);

    assertThat(allTook).isFalse();
    assertThat(told).containsExactly("first", "last");
    assertThat(failed).containsExactly("broken: a bug in a surface");
    assertThat(listeners.names()).containsExactly("first", "broken", "last");
  }

  @Test
  void aProgressListenerThatThrowsDoesNotKeepTheOthersFromWithdrawingTheirSlices() {
    var told = new ArrayList<String>();
    var failed = new ArrayList<String>();
    ProgressListener broken =
        new ProgressListener() {
          @Override
          public void planMade(GpuIndex gpu, Plan plan) {
            throw new IllegalStateException("cannot withdraw");
          }
        };
    ProgressListener recording =
        new ProgressListener() {
          @Override
          public void planMade(GpuIndex gpu, Plan plan) {
            told.add("planMade " + gpu);
          }
        };
    var listeners =
        new ProgressListeners(
            List.of(
                new ProgressListeners.Named("broken", broken),
                new ProgressListeners.Named("recording", recording)),
            (listener, cause) -> failed.add(listener));

    listeners.planMade(new GpuIndex(2), new Plan(List.of()));

    assertThat(told).containsExactly("planMade 2");
    assertThat(failed).containsExactly("broken");
  }
}
