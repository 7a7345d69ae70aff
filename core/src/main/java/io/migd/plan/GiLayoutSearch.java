package io.migd.plan;

import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Search for the final layout of GPU instances on one GPU, memoised and bounded.
 *
 * <p>A layout gives each profile of the target as many placements as the target asks for, with no
 * two overlapping. The search walks such layouts (depth first over each profile's placements in
 * index order, so instances of one profile are combinations, never permutations) and keeps the best
 * by a total order: the most existing GPU instances kept (that is, the fewest destroyed), then the
 * longest run of free memory slices, then the lexicographically smallest sorted list of placement
 * starts, then the profiles at those starts in catalogue order. Because the order is total, the
 * answer does not depend on the order the groups are given in.
 *
 * <p>Memoised: once the first groups are placed, the best way to place the rest depends only on
 * which memory slices are taken (every criterion above compares the rest alone when the first
 * groups are fixed), so each (group, taken slices) is solved once. Bounded (issue 19, DESIGN
 * section 13): every placement tried is a step of the decision's {@link SearchSteps}; at the bound
 * the search answers with the best layout found so far, or {@link Answer.Cut} when it has none.
 * Nothing memoised comes from a cut search.
 *
 * <p>Memory slices are bits of a {@code long} (no GPU known has more than 8; {@link TargetCheck}
 * turns a GPU past {@link #MAX_SLICES} into an infeasible target). Placements of instances that
 * must stay are occupied from the start.
 */
final class GiLayoutSearch {
  /**
   * One profile of the target.
   *
   * @param rank the profile's position in the model's catalogue (the last tie-break)
   * @param count how many GPU instances of it the target asks for
   * @param placements where it may sit, in catalogue order
   * @param existing bit {@code i} set when an existing GPU instance of this profile sits at {@code
   *     placements.get(i)} and may be kept
   * @param forced bit {@code i} set when the existing instance there is in use and must stay
   */
  record Group(int rank, int count, List<Placement> placements, long existing, long forced) {
    Group {
      placements = List.copyOf(placements);
      if ((forced & ~existing) != 0 || Long.bitCount(forced) > count) {
        throw new IllegalArgumentException("forced placements must be existing and at most count");
      }
      if (rank < 0 || placements.size() > MAX_SLICES) {
        throw new IllegalArgumentException(
            "profile rank " + rank + " with " + placements.size() + " placements");
      }
    }
  }

  /** Memory slices, and placements of one profile, that the search can hold. */
  static final int MAX_SLICES = Long.SIZE;

  /**
   * The best layout.
   *
   * @param chosen per group (in the order given), the bit set of chosen placement indices
   * @param kept how many existing GPU instances it keeps
   * @param freeRun the longest run of free memory slices it leaves
   */
  record Solution(List<Long> chosen, int kept, int freeRun) {
    Solution {
      chosen = List.copyOf(chosen);
    }
  }

  /** What a search found. */
  sealed interface Answer {
    /** A layout: the best there is, or the best found before the bound. */
    record Found(Solution solution) implements Answer {}

    /** No layout exists. */
    record None() implements Answer {}

    /** The bound was reached before any layout was found. */
    record Cut() implements Answer {}
  }

  /** The best way to place the groups from one on, given the slices taken before them. */
  private record Rest(int kept, int run, long startBits, int[] ranks, long[] chosen) {}

  private static final Rest DEAD = new Rest(-1, -1, 0, new int[0], new long[0]);

  private final long full;
  private final int groups;
  private final int[] count;
  private final int[] rank;
  private final long[][] masks;
  private final int[][] starts;
  private final long[] existing;
  private final long[] forced;
  private final int slices;
  private final SearchSteps steps;
  private final List<Map<Long, Rest>> memo;

  /** Where each group given sits in the search order. */
  private final int[] order;

  private GiLayoutSearch(int memorySlices, List<Group> given, SearchSteps steps) {
    if (memorySlices < 1 || memorySlices > MAX_SLICES) {
      throw new IllegalArgumentException("a GPU with " + memorySlices + " memory slices");
    }
    slices = memorySlices;
    this.steps = steps;
    full = mask(0, memorySlices);
    // Larger instances first: they have the fewest placements, so dead ends show early.
    var list = new ArrayList<>(given);
    list.sort(
        Comparator.comparingInt((Group g) -> -g.placements().getFirst().size())
            .thenComparingInt(Group::rank));
    order = new int[given.size()];
    for (int i = 0; i < given.size(); i++) {
      order[i] = list.indexOf(given.get(i));
    }
    groups = list.size();
    count = new int[groups];
    rank = new int[groups];
    masks = new long[groups][];
    starts = new int[groups][];
    existing = new long[groups];
    forced = new long[groups];
    memo = new ArrayList<>(groups + 1);
    for (int g = 0; g <= groups; g++) {
      memo.add(new HashMap<>());
    }
    for (int g = 0; g < groups; g++) {
      Group group = list.get(g);
      count[g] = group.count();
      rank[g] = group.rank();
      existing[g] = group.existing();
      forced[g] = group.forced();
      int n = group.placements().size();
      masks[g] = new long[n];
      starts[g] = new int[n];
      for (int i = 0; i < n; i++) {
        Placement p = group.placements().get(i);
        if (p.end() > memorySlices) {
          throw new IllegalArgumentException("placement " + p + " past the GPU's memory slices");
        }
        masks[g][i] = mask(p.start(), p.size());
        starts[g][i] = p.start();
      }
    }
  }

  /**
   * Searches the layouts of the groups on a GPU of {@code memorySlices} memory slices, taking steps
   * from {@code steps}.
   *
   * @return the best layout (the best found so far when the bound is reached), none when no layout
   *     exists, or cut when the bound was reached before any was found
   */
  static Answer best(int memorySlices, List<Group> groups, SearchSteps steps) {
    Objects.requireNonNull(groups);
    var search = new GiLayoutSearch(memorySlices, groups, steps);
    Optional<Long> occ = search.forcedSlices();
    if (occ.isEmpty()) {
      return new Answer.None();
    }
    Rest rest = search.rest(0, occ.get());
    if (rest != DEAD && rest != null) {
      return new Answer.Found(search.solution(rest));
    }
    return steps.cut() ? new Answer.Cut() : new Answer.None();
  }

  /**
   * Whether the groups have any layout at all; stops at the first one found.
   *
   * @return found (with that first layout), none, or cut
   */
  static Answer fits(int memorySlices, List<Group> groups, SearchSteps steps) {
    Objects.requireNonNull(groups);
    var search = new GiLayoutSearch(memorySlices, groups, steps);
    Optional<Long> occ = search.forcedSlices();
    if (occ.isEmpty()) {
      return new Answer.None();
    }
    var chosen = new long[groups.size()];
    if (search.anyLayout(0, occ.get(), chosen)) {
      var list = new ArrayList<Long>(chosen.length);
      for (int g : search.order) {
        list.add(chosen[g]);
      }
      return new Answer.Found(new Solution(list, 0, 0));
    }
    return steps.cut() ? new Answer.Cut() : new Answer.None();
  }

  /** The slices the instances that must stay take, or empty when two of them overlap. */
  private Optional<Long> forcedSlices() {
    long occ = 0;
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < masks[g].length; i++) {
        if ((forced[g] >>> i & 1) != 0) {
          if ((occ & masks[g][i]) != 0) {
            return Optional.empty();
          }
          occ |= masks[g][i];
        }
      }
    }
    return Optional.of(occ);
  }

  private Solution solution(Rest rest) {
    var result = new ArrayList<Long>(groups);
    for (int g : order) {
      result.add(rest.chosen()[g]);
    }
    return new Solution(result, rest.kept(), rest.run());
  }

  /**
   * The best placement of groups {@code g} on with {@code occ} taken: {@link #DEAD} when there is
   * none, null when the bound was reached before one was found.
   */
  private Rest rest(int g, long occ) {
    if (g == groups) {
      int[] ranks = new int[slices];
      Arrays.fill(ranks, -1);
      return new Rest(0, longestRun(full & ~occ), 0, ranks, new long[groups]);
    }
    Rest known = memo.get(g).get(occ);
    if (known != null) {
      return known;
    }
    var best = new Rest[1];
    choose(g, 0, count[g], occ, 0L, 0, best);
    if (steps.cut()) {
      return best[0];
    }
    Rest result = best[0] == null ? DEAD : best[0];
    memo.get(g).put(occ, result);
    return result;
  }

  /** Chooses group {@code g}'s placements from index {@code i} on, {@code left} of them still. */
  private void choose(int g, int i, int left, long occ, long bits, int kept, Rest[] best) {
    if (!steps.take()) {
      return;
    }
    if (left == 0) {
      if ((forced[g] >>> i) == 0) {
        Rest after = rest(g + 1, occ);
        if (after != null && after != DEAD) {
          Rest here = with(g, bits, kept, after);
          if (best[0] == null || better(here, best[0])) {
            best[0] = here;
          }
        }
      }
      return;
    }
    if (masks[g].length - i < left) {
      return;
    }
    if ((forced[g] >>> i & 1) != 0) {
      // Already occupied by itself from the start; it can only be taken.
      choose(g, i + 1, left - 1, occ, bits | 1L << i, kept + 1, best);
      return;
    }
    if ((masks[g][i] & occ) == 0) {
      choose(
          g,
          i + 1,
          left - 1,
          occ | masks[g][i],
          bits | 1L << i,
          kept + (int) (existing[g] >>> i & 1),
          best);
    }
    choose(g, i + 1, left, occ, bits, kept, best);
  }

  /** {@code after} with group {@code g} at {@code bits} in front of it. */
  private Rest with(int g, long bits, int kept, Rest after) {
    long startBits = after.startBits();
    int[] ranks = after.ranks().clone();
    for (long b = bits; b != 0; b &= b - 1) {
      int start = starts[g][Long.numberOfTrailingZeros(b)];
      startBits |= 1L << start;
      ranks[start] = rank[g];
    }
    long[] chosen = after.chosen().clone();
    chosen[g] = bits;
    return new Rest(kept + after.kept(), after.run(), startBits, ranks, chosen);
  }

  /** Whether {@code a} comes before {@code b} in the order the search keeps the best by. */
  private static boolean better(Rest a, Rest b) {
    if (a.kept() != b.kept()) {
      return a.kept() > b.kept();
    }
    if (a.run() != b.run()) {
      return a.run() > b.run();
    }
    int c = compareStarts(a.startBits(), b.startBits());
    return c != 0 ? c < 0 : Arrays.compare(a.ranks(), b.ranks()) < 0;
  }

  /**
   * Whether groups {@code g} on have a layout with {@code occ} taken, writing the first found into
   * {@code chosen}; a (group, taken slices) without one is remembered.
   */
  private boolean anyLayout(int g, long occ, long[] chosen) {
    if (g == groups) {
      return true;
    }
    Rest known = memo.get(g).get(occ);
    if (known == DEAD) {
      return false;
    }
    boolean found = anyChoice(g, 0, count[g], occ, 0L, chosen);
    if (!found && !steps.cut()) {
      memo.get(g).put(occ, DEAD);
    }
    return found;
  }

  private boolean anyChoice(int g, int i, int left, long occ, long bits, long[] chosen) {
    if (!steps.take()) {
      return false;
    }
    if (left == 0) {
      if ((forced[g] >>> i) != 0) {
        return false;
      }
      chosen[g] = bits;
      return anyLayout(g + 1, occ, chosen);
    }
    if (masks[g].length - i < left) {
      return false;
    }
    if ((forced[g] >>> i & 1) != 0) {
      return anyChoice(g, i + 1, left - 1, occ, bits | 1L << i, chosen);
    }
    return ((masks[g][i] & occ) == 0
            && anyChoice(g, i + 1, left - 1, occ | masks[g][i], bits | 1L << i, chosen))
        || anyChoice(g, i + 1, left, occ, bits, chosen);
  }

  /**
   * Compares two sets of starts of the same size by their sorted lists: the set holding the lowest
   * start that only one of them has comes first.
   */
  private static int compareStarts(long a, long b) {
    if (a == b) {
      return 0;
    }
    return (a & Long.lowestOneBit(a ^ b)) != 0 ? -1 : 1;
  }

  private static long mask(int start, int size) {
    return (size >= Long.SIZE ? -1L : (1L << size) - 1) << start;
  }

  /** The longest run of set bits. */
  static int longestRun(long bits) {
    if ((bits & ~0xFFL) == 0) {
      return RUNS[(int) bits];
    }
    int run = 0;
    while (bits != 0) {
      bits &= bits << 1;
      run++;
    }
    return run;
  }

  /** {@link #longestRun} of every byte, computed once; never written after. */
  private static final byte[] RUNS = new byte[256];

  static {
    for (int bits = 0; bits < 256; bits++) {
      int run = 0;
      for (int b = bits; b != 0; b &= b << 1) {
        run++;
      }
      RUNS[bits] = (byte) run;
    }
  }
}
