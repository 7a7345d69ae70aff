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
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every maximal layout and a seeded sample of other layouts of a GPU, and every profile
 * multiset the GPU can hold, the plan reaches exactly the target under the driver's rules and
 * destroys no more GPU instances than a brute-force search says is needed. Some starts have a GPU
 * instance in use, which the brute force may not destroy either (the planner must keep it, or be
 * blocked exactly when the brute force finds no way around it); some targets split a GPU instance
 * into 1-slice compute instances.
 */
class MinimalChangeTest {
  private static final int MIN_PAIRS = 20_000;
  private static final String HOLDER = "pod ml/train-0";

  static Stream<GpuModel> models() {
    return Stream.of(Gpus.A100_40GB, Gpus.H100_80GB, Gpus.model("A30"));
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
    long blocked = 0;
    for (List<Placed> start : starts) {
      ObservedGpu observed = observe(model, start, random);
      Usage usage = random.nextInt(3) == 0 ? inUse(observed, random) : Usage.NONE;
      List<Placed> inUse = placedInUse(start, observed, usage);
      for (List<GiProfile> target : targets) {
        List<GpuInstanceSpec> specs = specs(target, random);
        String what = "from " + start + " (in use: " + inUse + ") to " + specs;
        Decision decision = Planner.decide(GpuTarget.mig(GPU0, specs), observed, usage, model);
        int minimum = minimumDestroys(start, inUse, target, specs);
        var gpu = RuleCheckedGpu.of(model, observed).inUse(usage);
        switch (decision) {
          case Decision.InSync() -> assertThat(minimum).as(what).isZero();
          case Decision.Change(var plan) -> {
            assertThat(minimum).as("%s: the brute force finds no way", what).isNotNegative();
            try {
              gpu.apply(plan);
            } catch (AssertionError e) {
              fail(what + ": " + plan.steps(), e);
            }
            assertThat(plan.gpuInstancesDestroyed())
                .as("GPU-instance destroys %s: %s", what, plan.steps())
                .isEqualTo(minimum);
            destroys += plan.gpuInstancesDestroyed();
          }
          case Decision.Blocked b -> {
            assertThat(minimum).as("%s blocked: %s", what, b.reason()).isNegative();
            assertThat(b.holders()).containsExactly(HOLDER);
            blocked++;
            continue;
          }
          case Decision.Infeasible i -> fail("placeable target infeasible: " + i);
          case Decision.Unmanaged u -> fail("the planner never leaves a GPU unmanaged: " + u);
          case Decision.Failed f -> fail("the planner never fails on NVML: " + f);
        }
        assertThat(gpu.layout()).as(what).isEqualTo(RuleCheckedGpu.layoutOf(specs));
        var candidates =
            layouts.byMultiset.get(target).stream().filter(l -> l.containsAll(inUse)).toList();
        assertThat(gpu.placed())
            .as("preferred layout %s", what)
            .isEqualTo(preferred(model, start, candidates));
        assertThat(Planner.decide(GpuTarget.mig(GPU0, specs), gpu.observed(), usage, model))
            .as("after the plan %s", what)
            .isEqualTo(new Decision.InSync());
        pairs++;
      }
    }
    System.out.printf(
        "%s: %d (start, target) pairs planned and %d blocked from %d starts (%d maximal) to %d"
            + " targets, %d GPU-instance destroys%n",
        model.key(),
        pairs,
        blocked,
        starts.size(),
        layouts.maximal.size(),
        targets.size(),
        destroys);
  }

  /** Whole GPU instances, except that one in four targets splits one into 1-slice ones. */
  private static List<GpuInstanceSpec> specs(List<GiProfile> target, Random random) {
    var specs = new ArrayList<GpuInstanceSpec>();
    boolean split = random.nextInt(4) == 0;
    for (GiProfile p : target) {
      int g = p.slices();
      boolean splits =
          split && g > 1 && p.ciProfileBySlices(1).filter(ci -> ci.instances() >= g).isPresent();
      specs.add(
          splits
              ? new GpuInstanceSpec(p.name(), Collections.nCopies(g, 1))
              : GpuInstanceSpec.whole(p.name()));
      split &= !splits;
    }
    return specs;
  }

  /** One GPU instance holding just its spanning compute instance, in use by {@link #HOLDER}. */
  private static Usage inUse(ObservedGpu observed, Random random) {
    var whole =
        observed.gpuInstances().stream()
            .filter(
                gi ->
                    gi.computeInstances().size() == 1
                        && gi.computeInstances().getFirst().placement().size()
                            == gi.profile().gpuSlices())
            .toList();
    if (whole.isEmpty()) {
      return Usage.NONE;
    }
    LiveGpuInstance gi = whole.get(random.nextInt(whole.size()));
    int ci = gi.computeInstances().getFirst().id();
    return new Usage(Map.of(new Usage.SliceKey(GPU0, gi.id(), ci), List.of(HOLDER)));
  }

  private static List<Placed> placedInUse(List<Placed> start, ObservedGpu observed, Usage usage) {
    return start.stream()
        .filter(
            p ->
                observed.gpuInstances().stream()
                    .anyMatch(
                        gi ->
                            gi.placement().equals(p.placement())
                                && !usage.holdersOf(GPU0, gi.id()).isEmpty()))
        .toList();
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
   * Of every layout of the target, the one the planning rules prefer from {@code start}: fewest GPU
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
   * Brute force: the largest subset of the start's GPU instances that holds every one in use, whose
   * profiles the target has (a whole GPU instance for each one in use, whose compute instance must
   * stay), and around which the rest of the target can be placed, tried largest first; -1 when no
   * subset does.
   */
  static int minimumDestroys(
      List<Placed> start, List<Placed> inUse, List<GiProfile> target, List<GpuInstanceSpec> specs) {
    var whole = new ArrayList<GiProfile>();
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).isWhole()) {
        whole.add(target.get(i));
      }
    }
    var mayGo = new ArrayList<>(start);
    mayGo.removeAll(inUse);
    for (int keep = mayGo.size(); keep >= 0; keep--) {
      if (anySubsetKeeps(mayGo, 0, keep, new ArrayList<>(inUse), inUse, target, whole)) {
        return start.size() - inUse.size() - keep;
      }
    }
    return -1;
  }

  private static boolean anySubsetKeeps(
      List<Placed> start,
      int from,
      int left,
      List<Placed> kept,
      List<Placed> inUse,
      List<GiProfile> target,
      List<GiProfile> whole) {
    if (left == 0) {
      var rest = new ArrayList<>(target);
      for (Placed p : kept) {
        if (!rest.remove(p.profile())) {
          return false;
        }
      }
      var wholeLeft = new ArrayList<>(whole);
      for (Placed p : inUse) {
        if (!wholeLeft.remove(p.profile())) {
          return false;
        }
      }
      rest.sort(Comparator.comparingInt((GiProfile p) -> -p.memorySlices()));
      return placeable(rest, 0, new ArrayList<>(kept), -1);
    }
    for (int i = from; i <= start.size() - left; i++) {
      kept.add(start.get(i));
      boolean found = anySubsetKeeps(start, i + 1, left - 1, kept, inUse, target, whole);
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
