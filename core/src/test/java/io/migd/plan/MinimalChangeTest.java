package io.migd.plan;

import static io.migd.plan.Gpus.GPU0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.plan.Layouts.Placed;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every maximal layout and a seeded sample of other layouts of a GPU, and every profile
 * multiset the GPU can hold, the plan reaches exactly the target under the driver's rules and
 * destroys no more GPU instances than a brute-force search says is needed.
 */
class MinimalChangeTest {
  private static final int MIN_PAIRS = 20_000;

  static Stream<GpuModel> models() {
    return Stream.of(Gpus.A100_40GB, Gpus.H100_80GB);
  }

  @ParameterizedTest
  @MethodSource("models")
  void destroysOnlyTheGpuInstancesThatMustGo(GpuModel model) {
    var layouts = Layouts.of(model);
    var targets = List.copyOf(layouts.byMultiset.keySet());
    var random = new Random(0x5EED_0000L + model.key().hashCode());
    var starts = new ArrayList<>(layouts.maximal);
    var others = new ArrayList<>(layouts.all);
    others.removeAll(new HashSet<>(layouts.maximal));
    Collections.shuffle(others, random);
    int wanted = Math.max(60, ceilDiv(MIN_PAIRS + 2_000, targets.size()) - starts.size());
    starts.addAll(others.subList(0, Math.min(wanted, others.size())));

    long pairs = 0;
    long destroys = 0;
    for (List<Placed> start : starts) {
      ObservedGpu observed = observe(model, start, random);
      for (List<GiProfile> target : targets) {
        List<GpuInstanceSpec> specs =
            target.stream().map(p -> GpuInstanceSpec.whole(p.name())).toList();
        Decision decision = Planner.decide(GpuTarget.mig(GPU0, specs), observed, Usage.NONE, model);
        int minimum = minimumDestroys(start, target);
        var gpu = RuleCheckedGpu.of(model, observed);
        switch (decision) {
          case Decision.InSync() -> assertThat(minimum).isZero();
          case Decision.Change(var plan) -> {
            try {
              gpu.apply(plan);
            } catch (AssertionError e) {
              fail("from " + start + " to " + Layouts.show(target) + ": " + plan.steps(), e);
            }
            assertThat(plan.gpuInstancesDestroyed())
                .as(
                    "GPU-instance destroys from %s to %s: %s",
                    start, Layouts.show(target), plan.steps())
                .isEqualTo(minimum);
            destroys += plan.gpuInstancesDestroyed();
          }
          case Decision.Blocked b -> fail("blocked without usage: " + b);
          case Decision.Infeasible i -> fail("placeable target infeasible: " + i);
          case Decision.Unmanaged u -> fail("the planner never leaves a GPU unmanaged: " + u);
          case Decision.Failed f -> fail("the planner never fails on NVML: " + f);
        }
        assertThat(gpu.layout())
            .as("from %s to %s", start, Layouts.show(target))
            .isEqualTo(RuleCheckedGpu.layoutOf(specs));
        assertThat(gpu.placed())
            .as("preferred layout from %s to %s", start, Layouts.show(target))
            .isEqualTo(preferred(model, start, layouts.byMultiset.get(target)));
        assertThat(Planner.decide(GpuTarget.mig(GPU0, specs), gpu.observed(), Usage.NONE, model))
            .as("after the plan from %s to %s", start, Layouts.show(target))
            .isEqualTo(new Decision.InSync());
        pairs++;
      }
    }
    System.out.printf(
        "%s: %d (start, target) pairs from %d starts (%d maximal) to %d targets, %d GPU-instance"
            + " destroys%n",
        model.key(), pairs, starts.size(), layouts.maximal.size(), targets.size(), destroys);
    assertThat(pairs).isGreaterThanOrEqualTo(MIN_PAIRS);
  }

  /**
   * The layout as NVML would show it: driver-like GPU-instance ids, and mostly the one compute
   * instance spanning each, some half-made (no compute instance) and some split into 1-slice ones.
   */
  private static ObservedGpu observe(GpuModel model, List<Placed> layout, Random random) {
    var ids = new ArrayList<>(IntStream.rangeClosed(1, 14).boxed().toList());
    Collections.shuffle(ids, random);
    var gis = new ArrayList<LiveGpuInstance>();
    for (int i = 0; i < layout.size(); i++) {
      Placed p = layout.get(i);
      int id = ids.get(i);
      int roll = random.nextInt(10);
      var cis = new ArrayList<LiveComputeInstance>();
      if (roll < 7 || p.profile().slices() == 1) {
        cis.add(Gpus.ci(p.profile(), id, 0, p.profile().slices(), 0));
      } else if (roll < 9) {
        int n = random.nextInt(p.profile().slices()) + 1;
        for (int k = 0; k < n; k++) {
          cis.add(Gpus.ci(p.profile(), id, k, 1, k));
        }
      }
      gis.add(new LiveGpuInstance(id, p.profile().id(), p.profile().name(), p.placement(), cis));
    }
    gis.sort(Comparator.comparingInt(g -> g.placement().start()));
    return Gpus.observed(model, GPU0, true, true, gis);
  }

  /**
   * Of every layout of the target, the one DESIGN.md prefers from {@code start}: fewest GPU
   * instances destroyed (those of the start not in it at the same place), then the longest run of
   * free memory slices, then the smallest sorted list of starts, then the profiles at those starts
   * in catalogue order.
   */
  private static List<String> preferred(
      GpuModel model, List<Placed> start, List<List<Placed>> candidates) {
    Comparator<List<Placed>> byPreference =
        Comparator.<List<Placed>>comparingLong(
                l -> start.stream().filter(p -> !l.contains(p)).count())
            .thenComparing(l -> -freeRun(model, l))
            .thenComparing(l -> starts(l), MinimalChangeTest::lexicographic)
            .thenComparing(
                l ->
                    sortedByStart(l).stream()
                        .map(p -> model.giProfiles().indexOf(p.profile()))
                        .toList(),
                MinimalChangeTest::lexicographic);
    List<Placed> best = candidates.stream().min(byPreference).orElseThrow();
    long ties = candidates.stream().filter(l -> byPreference.compare(l, best) == 0).count();
    assertThat(ties).as("the preference is a total order").isEqualTo(1);
    return sortedByStart(best).stream().map(Placed::toString).toList();
  }

  private static List<Placed> sortedByStart(List<Placed> layout) {
    return layout.stream().sorted(Comparator.comparingInt(p -> p.placement().start())).toList();
  }

  private static List<Integer> starts(List<Placed> layout) {
    return sortedByStart(layout).stream().map(p -> p.placement().start()).toList();
  }

  private static int freeRun(GpuModel model, List<Placed> layout) {
    int best = 0;
    int run = 0;
    for (int slice = 0; slice < model.memorySlices(); slice++) {
      int s = slice;
      boolean used =
          layout.stream().anyMatch(p -> p.placement().start() <= s && s < p.placement().end());
      run = used ? 0 : run + 1;
      best = Math.max(best, run);
    }
    return best;
  }

  private static int lexicographic(List<Integer> a, List<Integer> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Integer.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /**
   * Brute force: the largest subset of the start's GPU instances whose profiles the target has and
   * around which the rest of the target can be placed, tried largest first.
   */
  static int minimumDestroys(List<Placed> start, List<GiProfile> target) {
    for (int keep = start.size(); keep >= 0; keep--) {
      if (anySubsetKeeps(start, 0, keep, new ArrayList<>(), target)) {
        return start.size() - keep;
      }
    }
    throw new AssertionError("the target does not fit an empty GPU: " + target);
  }

  private static boolean anySubsetKeeps(
      List<Placed> start, int from, int left, List<Placed> kept, List<GiProfile> target) {
    if (left == 0) {
      var rest = new ArrayList<>(target);
      for (Placed p : kept) {
        if (!rest.remove(p.profile())) {
          return false;
        }
      }
      rest.sort(Comparator.comparingInt((GiProfile p) -> -p.memorySlices()));
      return placeable(rest, 0, new ArrayList<>(kept), -1);
    }
    for (int i = from; i <= start.size() - left; i++) {
      kept.add(start.get(i));
      boolean found = anySubsetKeeps(start, i + 1, left - 1, kept, target);
      kept.removeLast();
      if (found) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code rest[k..]} can be placed around {@code layout}, trying every placement. */
  private static boolean placeable(
      List<GiProfile> rest, int k, List<Placed> layout, int previousIndex) {
    if (k == rest.size()) {
      return true;
    }
    GiProfile profile = rest.get(k);
    boolean sameAsPrevious = k > 0 && rest.get(k - 1).equals(profile);
    var placements = profile.placements();
    for (int i = sameAsPrevious ? previousIndex + 1 : 0; i < placements.size(); i++) {
      var c = new Placed(profile, placements.get(i));
      if (Layouts.fits(layout, c)) {
        layout.add(c);
        boolean done = placeable(rest, k + 1, layout, i);
        layout.removeLast();
        if (done) {
          return true;
        }
      }
    }
    return false;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }
}
