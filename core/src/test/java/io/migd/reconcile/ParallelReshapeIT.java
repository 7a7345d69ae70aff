package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.LayoutMatch;
import io.migd.layout.ObservedNode;
import io.migd.layout.TargetResolver;
import io.migd.nvml.NvmlException;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GPUs of a node reshaped at once (issue 10), through the reconciler and the real FFM path,
 * with every state-changing NVML call of the simulator delayed as a driver would take its time: the
 * GPUs' steps overlap, one GPU's fault or reset leaves the others correct, and {@code
 * migd.reconcile.parallelism=1} goes back to one GPU after another.
 */
class ParallelReshapeIT {
  private static final Path DEFAULT_CONFIG = Path.of("..", "profiles", "configs", "default.yaml");
  private static final String A100 = "A100-SXM4-40GB";
  private static final String FOUR_A100 = String.join(",", Collections.nCopies(4, A100));
  private static final int LATENCY_MS = 40;

  private static MigConfigFile shipped;
  private static SimulatedNode four;

  @BeforeAll
  static void start() throws Exception {
    shipped = MigConfigParser.parse(DEFAULT_CONFIG);
    four = SimulatedNode.start(FOUR_A100);
  }

  @AfterAll
  static void stop() {
    four.close();
  }

  private static Desired config(String name, long generation) {
    return Desired.config(Desired.Source.FILE, name, generation);
  }

  /**
   * Two reshapes from MIG disabled: enable MIG and create seven 1g slices (15 state-changing
   * calls), then replace them all by the balanced layout (22 calls).
   */
  private static void twoReshapes(SimulatedNode node, Reconciler reconciler) {
    node.reset(FOUR_A100);
    node.sim.require("latency", Integer.toString(LATENCY_MS));
    Outcome first = reconciler.reconcile(config("all-1g.5gb", 1));
    Outcome second = reconciler.reconcile(config("all-balanced", 2));
    node.sim.require("latency", "0");
    assertThat(first.succeeded()).as(first.reason()).isTrue();
    assertThat(second.succeeded()).as(second.reason()).isTrue();
    assertMatches(node, "all-balanced");
  }

  private static void assertMatches(SimulatedNode node, String configName) {
    ObservedNode now = node.observe();
    var config = shipped.config(configName).orElseThrow();
    TargetResolver.resolve(config, now)
        .forEach(
            (gpu, target) ->
                assertThat(LayoutMatch.matches(target, now.gpus().get(gpu.value())))
                    .as("GPU %s after %s", gpu, configName)
                    .isTrue());
  }

  // How long a node reshape takes, all at once against one after another, is measured by the
  // bench (ReshapeBenchmark, bench/README.md); here only the order of the GPUs' steps is checked.
  @Test
  void fourGpusReshapeAtOnceAndOneAfterAnotherWithParallelismOne() {
    var events = new ListenerLog();
    Reconciler allAtOnce =
        Reconciler.over(
            four.nvml,
            SimulatedNode.CATALOG,
            shipped::config,
            events,
            GpuReset.NONE,
            RebootPolicy.DISABLED);

    twoReshapes(four, allAtOnce);
    events.assertOneAtATimeAndInOrderPerGpu(4);
    events.assertGpusOverlapped(4);

    events.clear();
    twoReshapes(four, allAtOnce.withParallelism(1));
    events.assertOneAtATimeAndInOrderPerGpu(4);
    events.assertOneGpuAfterAnother(4);
  }

  static Stream<String> stateChangingFunctions() {
    return Stream.of(
        "nvmlDeviceSetMigMode",
        "nvmlDeviceCreateGpuInstanceWithPlacement",
        "nvmlGpuInstanceCreateComputeInstanceWithPlacement");
  }

  @ParameterizedTest
  @MethodSource("stateChangingFunctions")
  void aFaultOnOneGpuWhileTheOthersReshapeFailsOnlyThatGpuAndLeavesNothingHalfMade(
      String function) {
    Reconciler reconciler = four.reconciler(shipped, RebootPolicy.DISABLED);
    int calls = function.equals("nvmlDeviceSetMigMode") ? 1 : 3;
    for (int n = 1; n <= calls; n++) {
      four.reset(FOUR_A100);
      four.sim.require("latency", "5");
      four.sim.require("faults", function + "@2#" + n + "=NVML_ERROR_NO_PERMISSION");
      Outcome outcome = reconciler.reconcile(config("all-balanced", 1));
      four.sim.require("latency", "0");
      four.sim.require("faults", "");

      GpuResult faulted = outcome.results().get(new GpuIndex(2));
      assertThat(faulted).as("GPU 2, fault at call %d", n).isInstanceOf(GpuResult.Failed.class);
      assertThat(faulted.reason()).contains(function).contains("NVML_ERROR_NO_PERMISSION");
      for (int other : List.of(0, 1, 3)) {
        assertThat(outcome.results().get(new GpuIndex(other)))
            .as("GPU %d while GPU 2 failed at call %d", other, n)
            .isInstanceOf(GpuResult.Applied.class);
      }
      assertThat(four.observe().gpus().get(2).gpuInstances())
          .as("no GPU instance without its compute instances on GPU 2 after call %d", n)
          .allSatisfy(gi -> assertThat(gi.computeInstances()).isNotEmpty());

      Outcome retried = reconciler.reconcile(config("all-balanced", 1));
      assertThat(retried.succeeded()).as(retried.reason()).isTrue();
      assertMatches(four, "all-balanced");
    }
  }

  @Test
  void aResetOfOneGpuWhileTheOthersReshapeLeavesEveryGpuCorrect() {
    four.reset(FOUR_A100);
    // a client NVML does not list holds GPU 0: its MIG mode stays pending until it is reset
    four.sim.require("attach", "--gpu", "0", "--holder", "--pid", "99", "--name", "persistenced");
    var steps = new StepCount();
    var midReshapeAtReset = new ArrayList<Integer>();
    GpuReset reset =
        gpu -> {
          midReshapeAtReset.addAll(steps.midPlan());
          return four.nvml.whileReleased(
              () -> {
                four.sim.require("detach", "--pid", "99");
                var result = four.sim.resetGpu(gpu.index().value());
                return GpuReset.Result.of(result.succeeded(), result.output());
              });
        };
    Reconciler reconciler =
        Reconciler.over(
            four.nvml, SimulatedNode.CATALOG, shipped::config, steps, reset, RebootPolicy.DISABLED);

    four.sim.require("latency", Integer.toString(LATENCY_MS));
    Outcome outcome = reconciler.reconcile(config("all-balanced", 1));
    four.sim.require("latency", "0");

    assertThat(midReshapeAtReset)
        .as("GPUs in the middle of their plans when GPU 0 was reset")
        .containsAnyOf(1, 2, 3);
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    assertThat(outcome.results().values()).allMatch(r -> r instanceof GpuResult.Applied);
    assertMatches(four, "all-balanced");
    assertThat(four.observe().gpus()).allMatch(g -> g.migMode().current());
  }

  /** Counts, per GPU, steps started and ended, to see which GPUs are in the middle of a plan. */
  private static final class StepCount implements ProgressListener {
    private final Map<Integer, int[]> planned = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> ended = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> started = new ConcurrentHashMap<>();

    @Override
    public void planMade(GpuIndex gpu, Plan plan) {
      planned.put(gpu.value(), new int[] {plan.steps().size()});
    }

    @Override
    public void stepStarted(Step step) {
      started.computeIfAbsent(step.gpu().value(), g -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void stepDone(Step step) {
      ended.computeIfAbsent(step.gpu().value(), g -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void stepFailed(Step step, NvmlException cause) {
      stepDone(step);
    }

    List<Integer> midPlan() {
      return planned.entrySet().stream()
          .filter(
              e -> {
                int done = ended.getOrDefault(e.getKey(), new AtomicInteger()).get();
                int begun = started.getOrDefault(e.getKey(), new AtomicInteger()).get();
                return begun > 0 && done < e.getValue()[0];
              })
          .map(Map.Entry::getKey)
          .sorted()
          .toList();
    }
  }

  /**
   * Records listener events and whether two ever overlapped: the reconciler promises one event at a
   * time, and each GPU's in its order.
   */
  private static final class ListenerLog implements ProgressListener {
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();

    private void record(int gpu, String what) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      events.add(gpu + " " + what);
      inside.decrementAndGet();
    }

    void clear() {
      events.clear();
      overlaps.set(0);
    }

    @Override
    public void planMade(GpuIndex gpu, Plan plan) {
      record(gpu.value(), "plan " + plan.steps().size());
    }

    @Override
    public void stepStarted(Step step) {
      record(step.gpu().value(), "start " + step);
    }

    @Override
    public void stepDone(Step step) {
      record(step.gpu().value(), "done " + step);
    }

    void assertOneAtATimeAndInOrderPerGpu(int gpus) {
      assertThat(overlaps.get()).as("listener calls that overlapped").isZero();
      List<String> all = List.copyOf(events);
      IntStream.range(0, gpus)
          .forEach(
              gpu -> {
                List<String> mine =
                    all.stream()
                        .filter(e -> e.startsWith(gpu + " "))
                        .map(e -> e.substring(e.indexOf(' ') + 1))
                        .toList();
                assertThat(mine).as("GPU %d's events", gpu).isNotEmpty();
                assertThat(mine.getFirst()).startsWith("plan");
                for (int i = 1; i < mine.size(); i++) {
                  String event = mine.get(i);
                  String before = mine.get(i - 1);
                  if (event.startsWith("done ")) {
                    assertThat(before)
                        .as("GPU %d: the step before %s", gpu, event)
                        .isEqualTo("start " + event.substring(5));
                  }
                }
              });
    }

    /** GPU {@code gpus - 1}'s plan began before GPU 0's steps ended: the GPUs ran at once. */
    void assertGpusOverlapped(int gpus) {
      List<String> all = List.copyOf(events);
      int lastOfFirstGpu = -1;
      int firstOfLastGpu = -1;
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).startsWith("0 ")) {
          lastOfFirstGpu = i;
        }
        if (firstOfLastGpu < 0 && all.get(i).startsWith((gpus - 1) + " ")) {
          firstOfLastGpu = i;
        }
      }
      assertThat(firstOfLastGpu)
          .as("GPU %d's plan began before GPU 0's steps ended (the GPUs ran at once)", gpus - 1)
          .isLessThan(lastOfFirstGpu);
    }

    /** Each GPU's events of a reconcile come together: no GPU began before the previous ended. */
    void assertOneGpuAfterAnother(int gpus) {
      List<String> all = List.copyOf(events);
      var order = new ArrayList<String>();
      for (String event : all) {
        String gpu = event.substring(0, event.indexOf(' '));
        if (order.isEmpty() || !order.getLast().equals(gpu)) {
          order.add(gpu);
        }
      }
      // two reconciles, each GPU one block per reconcile, in index order
      var expected = new ArrayList<String>();
      for (int round = 0; round < 2; round++) {
        IntStream.range(0, gpus).forEach(gpu -> expected.add(Integer.toString(gpu)));
      }
      assertThat(order).as("the GPUs whose events follow each other").isEqualTo(expected);
    }
  }
}
