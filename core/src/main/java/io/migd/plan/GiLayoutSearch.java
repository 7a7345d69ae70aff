package io.migd.plan;

import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Complete search for the final layout of GPU instances on one GPU.
 *
 * <p>A layout gives each profile of the target as many placements as the target asks for, with no
 * two overlapping. The search walks every such layout (depth first over each profile's placements
 * in index order, so instances of one profile are combinations, never permutations) and keeps the
 * best by a total order: the most existing GPU instances kept (that is, the fewest destroyed), then
 * the longest run of free memory slices, then the lexicographically smallest sorted list of
 * placement starts, then the profiles at those starts in catalogue order. Because the order is
 * total, the answer does not depend on the order the groups are given in.
 *
 * <p>Memory slices are bits of a {@code long} (no GPU known has more than 8; {@link TargetCheck}
 * turns a GPU past {@link #MAX_SLICES} into an infeasible target). Placements of instances that
 * must stay are occupied from the start. A branch is cut when even keeping every existing instance
 * still reachable cannot beat the best kept count, or ties it while the free run it still has is
 * already shorter than the best's.
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

  private final long full;
  private final int groups;
  private final int[] count;
  private final int[] rank;
  private final long[][] masks;
  private final int[][] starts;
  private final long[] existing;
  private final long[] forced;
  private final int[] suffixPotential;
  private final long[] chosen;
  private final int slices;
  private final boolean anyWillDo;
  private long[] bestChosen;
  private int bestKept = -1;
  private int bestRun = -1;
  private long bestStarts;
  private int[] bestRanks;

  /** Where each group given sits in the search order. */
  private final int[] order;

  private GiLayoutSearch(int memorySlices, List<Group> given, boolean anyWillDo) {
    if (memorySlices < 1 || memorySlices > MAX_SLICES) {
      throw new IllegalArgumentException("a GPU with " + memorySlices + " memory slices");
    }
    slices = memorySlices;
    this.anyWillDo = anyWillDo;
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
    suffixPotential = new int[groups + 1];
    chosen = new long[groups];
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
    for (int g = groups - 1; g >= 0; g--) {
      suffixPotential[g] = suffixPotential[g + 1] + Math.min(count[g], Long.bitCount(existing[g]));
    }
  }

  /**
   * Searches every layout of the groups on a GPU of {@code memorySlices} memory slices.
   *
   * @return the best layout, or empty when none exists
   */
  static Optional<Solution> best(int memorySlices, List<Group> groups) {
    Objects.requireNonNull(groups);
    return new GiLayoutSearch(memorySlices, groups, false).run();
  }

  /** Whether the groups have any layout at all; stops at the first one found. */
  static boolean fits(int memorySlices, List<Group> groups) {
    Objects.requireNonNull(groups);
    return new GiLayoutSearch(memorySlices, groups, true).run().isPresent();
  }

  private Optional<Solution> run() {
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
    nextGroup(-1, occ, 0);
    if (bestChosen == null) {
      return Optional.empty();
    }
    var result = new ArrayList<Long>(groups);
    for (int g : order) {
      result.add(bestChosen[g]);
    }
    return Optional.of(new Solution(result, bestKept, bestRun));
  }

  private void nextGroup(int g, long occ, int kept) {
    if (g + 1 == groups) {
      consider(occ, kept);
    } else {
      place(g + 1, 0, count[g + 1], occ, kept);
    }
  }

  private void place(int g, int i, int left, long occ, int kept) {
    if (anyWillDo && bestChosen != null) {
      return;
    }
    if (left == 0) {
      if ((forced[g] >>> i) == 0) {
        nextGroup(g, occ, kept);
      }
      return;
    }
    int n = masks[g].length;
    if (n - i < left) {
      return;
    }
    int potential =
        kept + Math.min(left, Long.bitCount(existing[g] >>> i)) + suffixPotential[g + 1];
    if (potential < bestKept || (potential == bestKept && longestRun(full & ~occ) < bestRun)) {
      return;
    }
    boolean isForced = (forced[g] >>> i & 1) != 0;
    if (isForced) {
      // Already occupied by itself from the start; it can only be taken.
      chosen[g] |= 1L << i;
      place(g, i + 1, left - 1, occ, kept + 1);
      chosen[g] &= ~(1L << i);
      return;
    }
    if ((masks[g][i] & occ) == 0) {
      chosen[g] |= 1L << i;
      place(g, i + 1, left - 1, occ | masks[g][i], kept + (int) (existing[g] >>> i & 1));
      chosen[g] &= ~(1L << i);
    }
    place(g, i + 1, left, occ, kept);
  }

  private void consider(long occ, int kept) {
    int run = longestRun(full & ~occ);
    if (kept < bestKept || (kept == bestKept && run < bestRun)) {
      return;
    }
    // Starts are distinct (instances do not overlap), so a layout's sorted starts are a bit set.
    long startBits = 0;
    for (int g = 0; g < groups; g++) {
      for (long bits = chosen[g]; bits != 0; bits &= bits - 1) {
        startBits |= 1L << starts[g][Long.numberOfTrailingZeros(bits)];
      }
    }
    int[] ranks = null;
    if (kept == bestKept && run == bestRun) {
      int c = compareStarts(startBits, bestStarts);
      if (c > 0) {
        return;
      }
      if (c == 0) {
        ranks = ranksByStart();
        if (Arrays.compare(ranks, bestRanks) >= 0) {
          return;
        }
      }
    }
    bestKept = kept;
    bestRun = run;
    bestStarts = startBits;
    bestRanks = ranks != null ? ranks : ranksByStart();
    bestChosen = chosen.clone();
  }

  /** The catalogue rank of the profile at each memory slice where an instance starts, else -1. */
  private int[] ranksByStart() {
    int[] ranks = new int[slices];
    Arrays.fill(ranks, -1);
    for (int g = 0; g < groups; g++) {
      for (long bits = chosen[g]; bits != 0; bits &= bits - 1) {
        ranks[starts[g][Long.numberOfTrailingZeros(bits)]] = rank[g];
      }
    }
    return ranks;
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
