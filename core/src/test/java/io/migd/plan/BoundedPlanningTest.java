package io.migd.plan;

import static io.migd.plan.Gpus.GPU0;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Layouts.Placed;
import io.migd.plan.testing.SharedPlacementModel;
import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The placement search is bounded by {@code migd.planner.max-steps} (issue 19, DESIGN section 13):
 * a target mixing many profiles that share placements ends at the bound, with the best layout found
 * so far or a clear cut; the real catalogue never nears the bound.
 */
class BoundedPlanningTest {
  private static GpuTarget oneOfEach() {
    return SharedPlacementModel.oneOfEach(GPU0);
  }

  @Test
  void plansWithTheBestLayoutFoundWhenTheBoundCutsTheSearch() {
    GpuModel model = SharedPlacementModel.model(32, 32);
    var steps = new SearchSteps(PlannerBound.DEFAULT);

    Decision decision = Planner.decide(oneOfEach(), Gpus.migOn(model), Usage.NONE, model, steps);

    assertThat(steps.cut()).isTrue();
    assertThat(steps.used()).isEqualTo(PlannerBound.DEFAULT.maxSteps());
    assertThat(decision).isInstanceOf(Decision.Change.class);
    var gpu = new RuleCheckedGpu(model, GPU0, true);
    gpu.apply(((Decision.Change) decision).plan());
    assertThat(gpu.layout()).isEqualTo(RuleCheckedGpu.layoutOf(oneOfEach().gpuInstances()));
    assertThat(Planner.decide(oneOfEach(), Gpus.migOn(model), Usage.NONE, model))
        .as("the same decision every time: the bound counts steps, not time")
        .isEqualTo(decision);
  }

  @Test
  void failsTheGpuWhenTheBoundCutsTheSearchBeforeAnyLayout() {
    // 20 instances for 19 shared placements: no layout, but no quick proof of it either.
    GpuModel model = SharedPlacementModel.model(32, 19);

    Decision decision = Planner.decide(oneOfEach(), Gpus.migOn(model), Usage.NONE, model);

    assertThat(decision)
        .isEqualTo(
            new Decision.Failed(
                NvmlReturn.UNKNOWN,
                "GPU 0 (SHARED-20x19): placement search cut after "
                    + PlannerBound.DEFAULT.maxSteps()
                    + " steps"));
  }

  @Test
  void takesTheBoundFromTheCaller() {
    GpuModel model = SharedPlacementModel.model(32, 19);

    Decision decision =
        Planner.decide(oneOfEach(), Gpus.migOn(model), Usage.NONE, model, new PlannerBound(500));

    assertThat(decision)
        .isEqualTo(
            new Decision.Failed(
                NvmlReturn.UNKNOWN, "GPU 0 (SHARED-20x19): placement search cut after 500 steps"));
  }

  static Stream<GpuModel> migModels() {
    return Gpus.CATALOG.migModels().stream();
  }

  /**
   * Every target of every MIG model, from an empty GPU and from each maximal layout (its first GPU
   * instance in use), ends within a hundredth of the default bound, so the default never changes a
   * decision on real GPUs.
   */
  @ParameterizedTest
  @MethodSource("migModels")
  void realCatalogueDecisionsNeverNearTheBound(GpuModel model) {
    long margin = PlannerBound.DEFAULT.maxSteps() / 100;
    var layouts = Layouts.of(model);
    var starts = new ArrayList<List<Placed>>();
    starts.add(List.of());
    starts.addAll(layouts.maximal);
    long most = 0;
    for (List<Placed> start : starts) {
      ObservedGpu observed = observe(model, start);
      Usage usage = start.isEmpty() ? Usage.NONE : firstInUse(observed);
      for (List<GiProfile> target : layouts.byMultiset.keySet()) {
        var specs = target.stream().map(p -> GpuInstanceSpec.whole(p.name())).toList();
        var steps = new SearchSteps(PlannerBound.DEFAULT);
        Decision decision =
            Planner.decide(GpuTarget.mig(GPU0, specs), observed, usage, model, steps);
        assertThat(decision).as("%s from %s", specs, start).isNotInstanceOf(Decision.Failed.class);
        most = Math.max(most, steps.used());
      }
    }
    System.out.printf("%s: at most %d search steps per decision%n", model.key(), most);
    assertThat(most).isLessThan(margin);
  }

  private static ObservedGpu observe(GpuModel model, List<Placed> layout) {
    var gpu = new RuleCheckedGpu(model, GPU0, true);
    var steps = new ArrayList<Step>();
    for (Placed p : layout) {
      GiProfile gi = p.profile();
      steps.add(new Step.CreateGpuInstance(GPU0, gi.name(), gi.id(), p.placement()));
      CiProfile whole = gi.ciProfileBySlices(gi.slices()).orElseThrow();
      steps.add(
          new Step.CreateComputeInstance(
              GPU0,
              p.placement(),
              gi.name().computeInstance(gi.slices()),
              whole.id(),
              new Placement(0, gi.slices())));
    }
    gpu.apply(new Plan(steps));
    return gpu.observed();
  }

  private static Usage firstInUse(ObservedGpu observed) {
    var gi = observed.gpuInstances().getFirst();
    var ci = gi.computeInstances().getFirst();
    return new Usage(Map.of(new Usage.SliceKey(GPU0, gi.id(), ci.id()), List.of("pod ml/train-0")));
  }
}
