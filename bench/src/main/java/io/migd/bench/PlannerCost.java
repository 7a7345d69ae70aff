package io.migd.bench;

import io.migd.plan.Planner;
import io.migd.profiles.GpuModelCatalog;
import java.util.Arrays;

/**
 * The cost of each planner decision with scheduling noise taken out: every transition of {@link
 * PlannerBenchmark}'s set is timed {@code rounds} times and its fastest time kept, so a busy
 * machine cannot make a decision look slow. Prints the distribution of those per-transition costs
 * and the slowest transition. A companion to the JMH benchmark, whose sample mode measures latency
 * as a caller sees it, preemption included.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.migd.bench.PlannerCost [rounds]}.
 */
public final class PlannerCost {
  private PlannerCost() {}

  /**
   * Times every transition and prints the result.
   *
   * @param args optionally the number of rounds (default 200)
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    var model = GpuModelCatalog.builtIn().byKey("H100-SXM5-80GB").orElseThrow();
    var all = RandomTransitions.generate(model, 8, 4096, 20251122L);
    long[] best = new long[all.size()];
    Arrays.fill(best, Long.MAX_VALUE);
    long sink = 0;
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < all.size(); i++) {
        var t = all.get(i);
        long start = System.nanoTime();
        var decision = Planner.decide(t.desired(), t.observed(), t.usage(), t.model());
        long took = System.nanoTime() - start;
        sink += decision.hashCode();
        best[i] = Math.min(best[i], took);
      }
    }
    int slowest = 0;
    for (int i = 1; i < best.length; i++) {
      if (best[i] > best[slowest]) {
        slowest = i;
      }
    }
    long[] sorted = best.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%d transitions, fastest of %d rounds each (us): p50 %.1f, p99 %.1f, max %.1f%n",
        sorted.length,
        rounds,
        sorted[sorted.length / 2] / 1e3,
        sorted[(int) (sorted.length * 0.99)] / 1e3,
        sorted[sorted.length - 1] / 1e3);
    var t = all.get(slowest);
    System.out.printf(
        "slowest: target %s, observed %s (checksum %d)%n",
        t.desired().gpuInstances(),
        t.observed().gpuInstances().stream()
            .map(gi -> gi.profile() + "@" + gi.placement())
            .toList(),
        sink);
  }
}
