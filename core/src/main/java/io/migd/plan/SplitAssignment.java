package io.migd.plan;

import io.migd.profiles.GiProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides which of the wanted compute-instance splits of one profile each kept GPU instance of that
 * profile takes, keeping as many existing compute instances as possible.
 *
 * <p>Which kept GPU instance becomes which wanted one does not change the GPU-instance layout, only
 * the compute instances: a kept instance with compute instances in use can take only a split that
 * holds them, and the others take whatever keeps the most. Wanted instances with equal splits are
 * interchangeable, so each kept instance chooses among the distinct splits only, and every choice
 * is tried.
 */
final class SplitAssignment {
  private SplitAssignment() {}

  /** The split a kept GPU instance takes, and how its compute instances change to reach it. */
  record Choice(List<Integer> split, CiLayoutSearch.Result result) {
    Choice {
      split = List.copyOf(split);
    }
  }

  /**
   * One choice per kept GPU instance, in the order given.
   *
   * @param gi the GPU-instance profile
   * @param kept the compute instances of each kept GPU instance
   * @param wanted the wanted splits of the profile, at least as many as {@code kept}
   * @return the choices, or empty when the compute instances in use allow none
   */
  static Optional<List<Choice>> assign(
      GiProfile gi, List<List<CiLayoutSearch.Existing>> kept, List<List<Integer>> wanted) {
    var splits = new ArrayList<List<Integer>>();
    var left = new ArrayList<Integer>();
    for (List<Integer> split : wanted) {
      int at = splits.indexOf(split);
      if (at < 0) {
        splits.add(split);
        left.add(1);
      } else {
        left.set(at, left.get(at) + 1);
      }
    }
    var options = new ArrayList<List<Optional<CiLayoutSearch.Result>>>();
    for (var cis : kept) {
      var row = new ArrayList<Optional<CiLayoutSearch.Result>>();
      for (var split : splits) {
        row.add(CiLayoutSearch.best(gi, split, cis));
      }
      options.add(row);
    }
    var search = new SplitAssignment.Search(options, left);
    search.assign(0, 0);
    if (search.bestKept < 0) {
      return Optional.empty();
    }
    var result = new ArrayList<Choice>(kept.size());
    for (int i = 0; i < kept.size(); i++) {
      int s = search.best[i];
      result.add(new Choice(splits.get(s), options.get(i).get(s).orElseThrow()));
    }
    return Optional.of(result);
  }

  private static final class Search {
    final List<List<Optional<CiLayoutSearch.Result>>> options;
    final int[] counts;
    final int[] choice;
    final int[] best;
    int bestKept = -1;

    Search(List<List<Optional<CiLayoutSearch.Result>>> options, List<Integer> left) {
      this.options = options;
      this.counts = left.stream().mapToInt(Integer::intValue).toArray();
      this.choice = new int[options.size()];
      this.best = new int[options.size()];
    }

    void assign(int i, int keptSoFar) {
      if (i == options.size()) {
        if (keptSoFar > bestKept) {
          bestKept = keptSoFar;
          System.arraycopy(choice, 0, best, 0, choice.length);
        }
        return;
      }
      for (int s = 0; s < counts.length; s++) {
        var option = options.get(i).get(s);
        if (counts[s] == 0 || option.isEmpty()) {
          continue;
        }
        counts[s]--;
        choice[i] = s;
        assign(i + 1, keptSoFar + option.get().kept().size());
        counts[s]++;
      }
    }
  }
}
