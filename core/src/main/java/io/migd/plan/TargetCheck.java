package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks a MIG target against a GPU model before anything is touched, and puts it in a canonical
 * order so that the order its specs were written in cannot change a decision.
 */
final class TargetCheck {
  private TargetCheck() {}

  /**
   * A GPU instance the target asks for, resolved against the model.
   *
   * @param profile the GPU-instance profile
   * @param rank its position in the model's catalogue
   * @param computeInstances the compute-slice sizes of its compute instances, ascending
   */
  record Wanted(GiProfile profile, int rank, List<Integer> computeInstances) {
    Wanted {
      computeInstances = List.copyOf(computeInstances);
    }
  }

  /** The outcome of the check. */
  sealed interface Result {
    /** The target can exist on an empty GPU of the model; the GPU instances in canonical order. */
    record Valid(List<Wanted> wanted) implements Result {
      public Valid {
        wanted = List.copyOf(wanted);
      }
    }

    /** The target cannot exist on this GPU, and why. */
    record Invalid(String reason) implements Result {}

    /** The search for a layout reached its bound before it found one or showed there is none. */
    record Cut(String reason) implements Result {}
  }

  private static final Comparator<Wanted> CANONICAL =
      Comparator.comparingInt(Wanted::rank)
          .thenComparing(Wanted::computeInstances, TargetCheck::compareSizes);

  static Result check(GpuTarget target, GpuModel model, SearchSteps steps) {
    GpuIndex gpu = target.gpu();
    Optional<String> tooLarge = beyondSearch(model);
    if (tooLarge.isPresent()) {
      return invalid(gpu, model, tooLarge.get());
    }
    var wanted = new ArrayList<Wanted>();
    for (GpuInstanceSpec spec : target.gpuInstances()) {
      Optional<GiProfile> profile =
          model.giProfile(spec.profile()).filter(p -> p.name().equals(spec.profile()));
      if (profile.isEmpty()) {
        return invalid(
            gpu, model, "no GPU-instance profile " + spec.profile() + profilesHere(model));
      }
      wanted.add(
          new Wanted(
              profile.get(),
              model.giProfiles().indexOf(profile.get()),
              spec.computeInstanceSlices()));
    }
    wanted.sort(CANONICAL);
    int[] counts = counts(wanted, model);
    Optional<String> countProblem =
        tooMany(counts, model).or(() -> sharedOpticalFlow(counts, model));
    if (countProblem.isPresent()) {
      return invalid(gpu, model, countProblem.get());
    }
    for (Wanted w : wanted) {
      Optional<String> problem = computeInstanceProblem(w);
      if (problem.isPresent()) {
        return invalid(gpu, model, problem.get());
      }
    }
    switch (GiLayoutSearch.fits(model.memorySlices(), groups(counts, model), steps)) {
      case GiLayoutSearch.Answer.Found _ -> {}
      case GiLayoutSearch.Answer.Cut() -> {
        return new Result.Cut(prefix(gpu, model) + steps.cutReason());
      }
      case GiLayoutSearch.Answer.None() -> {
        int[] part = largestPart(counts, model, steps);
        return invalid(
            gpu,
            model,
            describe(counts, model)
                + " do not fit together; the largest part that fits"
                + (steps.cut() ? " (found before the " + steps.cutReason() + ")" : "")
                + ": "
                + describe(part, model)
                + profilesHere(model));
      }
    }
    return new Result.Valid(wanted);
  }

  /** Why {@code counts} (per GI profile) asks for more of a profile than the GPU can hold. */
  private static Optional<String> tooMany(int[] counts, GpuModel model) {
    for (int r = 0; r < counts.length; r++) {
      GiProfile p = model.giProfiles().get(r);
      if (counts[r] > p.instances()) {
        return Optional.of(
            counts[r]
                + " × "
                + p.name()
                + " do not fit (at most "
                + p.instances()
                + ")"
                + profilesHere(model));
      }
    }
    return Optional.empty();
  }

  /** Why {@code counts} asks for two profiles that each need the GPU's one optical flow unit. */
  private static Optional<String> sharedOpticalFlow(int[] counts, GpuModel model) {
    var optical = new ArrayList<String>();
    for (int r = 0; r < counts.length; r++) {
      if (counts[r] > 0 && model.giProfiles().get(r).opticalFlowAccelerators() > 0) {
        optical.add(model.giProfiles().get(r).name().toString());
      }
    }
    if (optical.size() > 1) {
      return Optional.of(
          String.join(" and ", optical)
              + " do not fit together: each needs the GPU's one optical flow accelerator"
              + profilesHere(model));
    }
    return Optional.empty();
  }

  /**
   * What of the model the searches cannot hold: they keep slices, and placements of one profile, as
   * bits of a {@code long}; every GPU known has at most 8 memory slices.
   */
  private static Optional<String> beyondSearch(GpuModel model) {
    int limit = GiLayoutSearch.MAX_SLICES;
    if (model.memorySlices() > limit) {
      return Optional.of(
          "the GPU has " + model.memorySlices() + " memory slices; migd plans up to " + limit);
    }
    for (GiProfile p : model.giProfiles()) {
      if (p.placements().size() > limit || p.slices() > CiLayoutSearch.MAX_SLICES) {
        return Optional.of(
            p.name()
                + " has "
                + p.placements().size()
                + " placements of "
                + p.slices()
                + " compute slices; migd plans up to "
                + limit
                + " of each");
      }
    }
    return Optional.empty();
  }

  /** {@code "GPU 0 (A100-SXM4-40GB): "}. */
  static String prefix(GpuIndex gpu, GpuModel model) {
    return "GPU " + gpu + " (" + model.key() + "): ";
  }

  /** {@code "; profiles here: 1g.5gb, ..."}. */
  static String profilesHere(GpuModel model) {
    return "; profiles here: "
        + model.giProfiles().stream()
            .map(p -> p.name().toString())
            .collect(Collectors.joining(", "));
  }

  private static Result invalid(GpuIndex gpu, GpuModel model, String what) {
    return new Result.Invalid(prefix(gpu, model) + what);
  }

  private static Optional<String> computeInstanceProblem(Wanted w) {
    GiProfile gi = w.profile();
    int[] perSize = new int[gi.slices() + 1];
    for (int c : w.computeInstances()) {
      perSize[c]++;
    }
    for (int c = 1; c < perSize.length; c++) {
      if (perSize[c] == 0) {
        continue;
      }
      Optional<CiProfile> ci = gi.ciProfileBySlices(c);
      if (ci.isEmpty()) {
        return Optional.of(
            gi.name() + " offers no " + c + "-slice compute instance" + computeInstancesOf(gi));
      }
      if (perSize[c] > ci.get().instances()) {
        return Optional.of(
            perSize[c]
                + " × "
                + gi.name().computeInstance(c)
                + " do not fit in one "
                + gi.name()
                + " (at most "
                + ci.get().instances()
                + ")"
                + computeInstancesOf(gi));
      }
    }
    if (CiLayoutSearch.best(gi, w.computeInstances(), List.of()).isEmpty()) {
      return Optional.of(
          "compute instances "
              + w.computeInstances().stream()
                  .map(c -> gi.name().computeInstance(c).toString())
                  .collect(Collectors.joining(" + "))
              + " do not fit together in one "
              + gi.name()
              + computeInstancesOf(gi));
    }
    return Optional.empty();
  }

  /** {@code "; compute instances of 4g.20gb: 1c.4g.20gb (at most 4), ..."}. */
  private static String computeInstancesOf(GiProfile gi) {
    return "; compute instances of "
        + gi.name()
        + ": "
        + gi.ciProfiles().stream()
            .sorted(Comparator.comparingInt(CiProfile::slices))
            .map(ci -> gi.name().computeInstance(ci.slices()) + " (at most " + ci.instances() + ")")
            .collect(Collectors.joining(", "));
  }

  private static int[] counts(List<Wanted> wanted, GpuModel model) {
    int[] counts = new int[model.giProfiles().size()];
    for (Wanted w : wanted) {
      counts[w.rank()]++;
    }
    return counts;
  }

  private static List<GiLayoutSearch.Group> groups(int[] counts, GpuModel model) {
    var groups = new ArrayList<GiLayoutSearch.Group>();
    for (int r = 0; r < counts.length; r++) {
      if (counts[r] > 0) {
        groups.add(
            new GiLayoutSearch.Group(r, counts[r], model.giProfiles().get(r).placements(), 0, 0));
      }
    }
    return groups;
  }

  /**
   * The sub-multiset that fits with the most compute slices, then the most GPU instances, then the
   * most memory slices (the first in catalogue order on a tie).
   */
  private static int[] largestPart(int[] counts, GpuModel model, SearchSteps steps) {
    int[] part = new int[counts.length];
    int[] best = new int[counts.length];
    long[] bestScore = {-1};
    largestPart(counts, model, 0, part, best, bestScore, steps);
    return best;
  }

  private static void largestPart(
      int[] counts,
      GpuModel model,
      int r,
      int[] part,
      int[] best,
      long[] bestScore,
      SearchSteps steps) {
    if (!steps.take()) {
      return;
    }
    if (r == counts.length) {
      long compute = 0;
      long instances = 0;
      long memory = 0;
      for (int i = 0; i < part.length; i++) {
        GiProfile p = model.giProfiles().get(i);
        compute += (long) part[i] * p.slices();
        instances += part[i];
        memory += (long) part[i] * p.memorySlices();
      }
      long score = (compute << 32) | (instances << 16) | memory;
      if (score > bestScore[0]
          && GiLayoutSearch.fits(model.memorySlices(), groups(part, model), steps)
              instanceof GiLayoutSearch.Answer.Found) {
        bestScore[0] = score;
        System.arraycopy(part, 0, best, 0, part.length);
      }
      return;
    }
    for (int n = counts[r]; n >= 0; n--) {
      part[r] = n;
      largestPart(counts, model, r + 1, part, best, bestScore, steps);
    }
    part[r] = 0;
  }

  /** {@code "2 × 3g.20gb + 4g.20gb"}, in catalogue order. */
  static String describe(int[] counts, GpuModel model) {
    var parts = new ArrayList<String>();
    for (int r = 0; r < counts.length; r++) {
      if (counts[r] > 0) {
        String name = model.giProfiles().get(r).name().toString();
        parts.add(counts[r] == 1 ? name : counts[r] + " × " + name);
      }
    }
    return parts.isEmpty() ? "nothing" : String.join(" + ", parts);
  }

  private static int compareSizes(List<Integer> a, List<Integer> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Integer.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
