package io.migd.plan;

import static io.migd.plan.Gpus.GPU0;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.plan.Layouts.Placed;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every profile multiset that some layout of a GPU model holds is placed by the planner: from an
 * empty GPU in every order its specs can be written, and around an instance in use wherever some
 * layout of the multiset keeps that instance where it is.
 */
class PlacementCompletenessTest {
  private static final int MAX_ORDERS = 120;
  private static final String HOLDER = "pod default/trainer-0";

  static Stream<GpuModel> migModels() {
    return Gpus.CATALOG.migModels().stream();
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void placesEveryMultisetFromAnEmptyGpuInEveryOrder(GpuModel model) {
    var layouts = Layouts.of(model);
    var random = new Random(0x0D3E_0000L + model.key().hashCode());
    int decisions = 0;
    for (List<GiProfile> multiset : layouts.byMultiset.keySet()) {
      Decision first = null;
      for (List<GiProfile> order : orders(multiset, random)) {
        List<GpuInstanceSpec> specs = specs(order);
        Decision decision =
            Planner.decide(GpuTarget.mig(GPU0, specs), Gpus.migOn(model), Usage.NONE, model);
        if (first == null) {
          first = decision;
          if (multiset.isEmpty()) {
            assertThat(decision).isEqualTo(new Decision.InSync());
            continue;
          }
          assertThat(decision).as(Layouts.show(order)).isInstanceOf(Decision.Change.class);
          var gpu = new RuleCheckedGpu(model, GPU0, true);
          gpu.apply(((Decision.Change) decision).plan());
          assertThat(gpu.layout()).isEqualTo(RuleCheckedGpu.layoutOf(specs));
          var fromMigOff =
              Planner.decide(GpuTarget.mig(GPU0, specs), Gpus.migOff(model), Usage.NONE, model);
          var steps = new ArrayList<Step>();
          steps.add(new Step.EnableMig(GPU0));
          steps.addAll(((Decision.Change) decision).plan().steps());
          assertThat(fromMigOff).isEqualTo(new Decision.Change(new Plan(steps)));
        } else {
          assertThat(decision).as("written as %s", Layouts.show(order)).isEqualTo(first);
        }
        decisions++;
      }
    }
    System.out.printf(
        "%s: %d multisets placed from empty, %d decisions%n",
        model.key(), layouts.byMultiset.size(), decisions);
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void placesAroundAnInstanceInUseWhereverTheMultisetCanKeepIt(GpuModel model) {
    var layouts = Layouts.of(model);
    int kept = 0;
    int blocked = 0;
    for (Map.Entry<List<GiProfile>, List<List<Placed>>> entry : layouts.byMultiset.entrySet()) {
      List<GpuInstanceSpec> specs = specs(entry.getKey());
      for (GiProfile profile : new LinkedHashSet<>(entry.getKey())) {
        for (Placement at : profile.placements()) {
          var inUse = new Placed(profile, at);
          boolean fits = entry.getValue().stream().anyMatch(layout -> layout.contains(inUse));
          Decision decision = decideAround(model, specs, inUse);
          String what = Layouts.show(entry.getKey()) + " around " + inUse + " in use";
          if (fits) {
            assertThat(decision).as(what).isNotInstanceOf(Decision.Blocked.class);
            var gpu = RuleCheckedGpu.of(model, observedWith(model, inUse)).inUse(IN_USE);
            if (decision instanceof Decision.Change(var plan)) {
              assertThat(plan.steps())
                  .as(what)
                  .noneMatch(PlacementCompletenessTest::touchesInstanceInUse);
              gpu.apply(plan);
            }
            assertThat(gpu.layout()).as(what).isEqualTo(RuleCheckedGpu.layoutOf(specs));
            assertThat(gpu.describe(IN_USE_ID)).as(what).isEqualTo(inUse.toString());
            kept++;
          } else {
            assertThat(decision).as(what).isInstanceOf(Decision.Blocked.class);
            assertThat(((Decision.Blocked) decision).holders()).containsExactly(HOLDER);
            blocked++;
          }
        }
      }
    }
    System.out.printf(
        "%s: around an instance in use, %d kept and %d blocked%n", model.key(), kept, blocked);
    assertThat(kept).isPositive();
  }

  private static final int IN_USE_ID = 9;
  private static final Usage IN_USE =
      new Usage(Map.of(new Usage.SliceKey(GPU0, IN_USE_ID, 0), List.of(HOLDER)));

  private static boolean touchesInstanceInUse(Step step) {
    return switch (step) {
      case Step.DestroyGpuInstance(var _, var gi) -> gi == IN_USE_ID;
      case Step.DestroyComputeInstance(var _, var gi, var _) -> gi == IN_USE_ID;
      case Step.EnableMig _, Step.DisableMig _ -> true;
      case Step.CreateGpuInstance _, Step.CreateComputeInstance _ -> false;
    };
  }

  private static Decision decideAround(GpuModel model, List<GpuInstanceSpec> specs, Placed inUse) {
    return Planner.decide(GpuTarget.mig(GPU0, specs), observedWith(model, inUse), IN_USE, model);
  }

  private static ObservedGpu observedWith(GpuModel model, Placed inUse) {
    GiProfile p = inUse.profile();
    var gi =
        new LiveGpuInstance(
            IN_USE_ID,
            p.id(),
            p.name(),
            inUse.placement(),
            List.of(Gpus.ci(p, IN_USE_ID, 0, p.slices(), 0)));
    return Gpus.migOn(model, gi);
  }

  private static List<GpuInstanceSpec> specs(List<GiProfile> profiles) {
    return profiles.stream().map(p -> GpuInstanceSpec.whole(p.name())).toList();
  }

  /** Every distinct order of the multiset, or a seeded sample where there are too many. */
  private static List<List<GiProfile>> orders(List<GiProfile> multiset, Random random) {
    Set<List<GiProfile>> all = new LinkedHashSet<>();
    permute(new ArrayList<>(multiset), 0, all, MAX_ORDERS + 1);
    if (all.size() <= MAX_ORDERS) {
      return List.copyOf(all);
    }
    Set<List<GiProfile>> sample = new LinkedHashSet<>();
    sample.add(multiset);
    while (sample.size() < MAX_ORDERS) {
      var order = new ArrayList<>(multiset);
      Collections.shuffle(order, random);
      sample.add(List.copyOf(order));
    }
    return List.copyOf(sample);
  }

  private static void permute(List<GiProfile> list, int k, Set<List<GiProfile>> out, int limit) {
    if (out.size() >= limit) {
      return;
    }
    if (k == list.size()) {
      out.add(List.copyOf(list));
      return;
    }
    var seen = new LinkedHashSet<GiProfile>();
    for (int i = k; i < list.size(); i++) {
      if (!seen.add(list.get(i))) {
        continue;
      }
      Collections.swap(list, k, i);
      permute(list, k + 1, out, limit);
      Collections.swap(list, k, i);
    }
  }
}
