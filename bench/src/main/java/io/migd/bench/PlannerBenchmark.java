package io.migd.bench;

import io.migd.plan.Decision;
import io.migd.plan.Planner;
import io.migd.profiles.GpuModelCatalog;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Planner#decide} for one GPU, over a seeded set of random transitions on an 8-GPU
 * H100-SXM5-80GB node: each call takes the next transition, so the sample covers in-sync GPUs,
 * reshapes, MIG mode changes and GPUs blocked by slices in use. JMH's sample mode gives the latency
 * distribution (p50, p99, ...) in microseconds.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class PlannerBenchmark {
  /** The model of every GPU of the node. */
  @Param("H100-SXM5-80GB")
  public String model;

  /** GPUs on the node. */
  @Param("8")
  public int gpus;

  /** How many transitions to cycle through. */
  @Param("4096")
  public int transitions;

  /** Seed of the transitions. */
  @Param("20251122")
  public long seed;

  private List<RandomTransitions.Transition> all;
  private int next;

  /** Generates the transitions and prints what the planner decides for them. */
  @Setup
  public void generate() {
    var gpuModel = GpuModelCatalog.builtIn().byKey(model).orElseThrow();
    all = RandomTransitions.generate(gpuModel, gpus, transitions, seed);
    int[] kinds = new int[4];
    for (var t : all) {
      switch (Planner.decide(t.desired(), t.observed(), t.usage(), t.model())) {
        case Decision.InSync() -> kinds[0]++;
        case Decision.Change(var _) -> kinds[1]++;
        case Decision.Blocked(var _, var _) -> kinds[2]++;
        case Decision.Infeasible(var _) -> kinds[3]++;
        case Decision.Unmanaged(), Decision.Failed _ ->
            throw new IllegalStateException("the planner decides only selected, observed GPUs");
      }
    }
    System.out.printf(
        "%n%d transitions on %d × %s: %d in sync, %d change, %d blocked, %d infeasible%n",
        all.size(), gpus, model, kinds[0], kinds[1], kinds[2], kinds[3]);
  }

  /** One GPU decision. */
  @Benchmark
  public Decision decide() {
    var t = all.get(next);
    next = next + 1 == all.size() ? 0 : next + 1;
    return Planner.decide(t.desired(), t.observed(), t.usage(), t.model());
  }
}
