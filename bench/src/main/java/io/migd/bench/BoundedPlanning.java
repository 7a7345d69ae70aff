package io.migd.bench;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.plan.Decision;
import io.migd.plan.Planner;
import io.migd.plan.PlannerBound;
import io.migd.plan.testing.SharedPlacementModel;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import java.util.Arrays;
import java.util.List;

/**
 * The pathological placement search of issue 19 under the default {@code migd.planner.max-steps}:
 * one instance of each of 20 one-slice profiles that share every placement. Two cases: 32 shared
 * placements (a layout exists; the search ends at the bound and plans with the best found) and 19
 * (none exists, and none is found before the bound: the GPU fails with the cut). Each decision is
 * timed {@code rounds} times; prints the fastest, the median and the slowest, in milliseconds.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.migd.bench.BoundedPlanning [rounds]}.
 */
public final class BoundedPlanning {
  private BoundedPlanning() {}

  /**
   * Times both cases and prints the result.
   *
   * @param args optionally the number of rounds (default 30), then {@code warm}: before the timed
   *     rounds the planner decides, 50 times over, one instance of every profile of every MIG model
   *     of the real catalogue on an empty GPU, as a daemon's planner has run on its GPUs before a
   *     pathological target comes (its code compiled); without it the first round runs interpreted
   *     code in a cold JVM
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    boolean warm = args.length > 1 && args[1].equals("warm");
    System.out.printf(
        "migd.planner.max-steps %d (the default), %s JVM%n",
        PlannerBound.DEFAULT.maxSteps(), warm ? "a warmed-up" : "a cold");
    if (warm) {
      for (int round = 0; round < 50; round++) {
        GpuModelCatalog.builtIn().models().stream()
            .filter(GpuModel::migCapable)
            .forEach(BoundedPlanning::decideEveryProfile);
      }
    }
    time(SharedPlacementModel.model(32, 32), rounds);
    time(SharedPlacementModel.model(32, 19), rounds);
  }

  private static void decideEveryProfile(GpuModel model) {
    var gpu = new GpuIndex(0);
    ObservedGpu empty = SharedPlacementModel.migOn(model, gpu);
    for (GiProfile profile : model.giProfiles()) {
      GpuTarget one = GpuTarget.mig(gpu, List.of(GpuInstanceSpec.whole(profile.name())));
      Planner.decide(one, empty, Usage.NONE, model, PlannerBound.DEFAULT);
    }
  }

  private static void time(GpuModel model, int rounds) {
    var gpu = new GpuIndex(0);
    GpuTarget target = SharedPlacementModel.oneOfEach(gpu);
    ObservedGpu observed = SharedPlacementModel.migOn(model, gpu);
    long[] took = new long[rounds];
    Decision decision = null;
    for (int round = 0; round < rounds; round++) {
      long start = System.nanoTime();
      decision = Planner.decide(target, observed, Usage.NONE, model, PlannerBound.DEFAULT);
      took[round] = System.nanoTime() - start;
    }
    long[] sorted = took.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%s, %d rounds (ms): first %.1f, fastest %.1f, median %.1f, slowest %.1f; %s%n",
        model.key(),
        rounds,
        took[0] / 1e6,
        sorted[0] / 1e6,
        sorted[rounds / 2] / 1e6,
        sorted[rounds - 1] / 1e6,
        switch (decision) {
          case Decision.Change(var plan) -> "a plan of " + plan.steps().size() + " steps";
          case Decision.Failed(var _, var reason) -> "failed: " + reason;
          case Decision.InSync _, Decision.Blocked _, Decision.Infeasible _, Decision.Unmanaged _ ->
              decision.toString();
        });
  }
}
