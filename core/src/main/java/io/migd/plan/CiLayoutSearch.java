package io.migd.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Complete search for the compute instances of one GPU instance.
 *
 * <p>A compute instance of {@code c} compute slices may sit at starts {@code k * c} with {@code
 * start + c <= } the GPU instance's compute slices, and compute instances do not overlap. Given the
 * sizes wanted and the compute instances that exist, the search tries every subset of the existing
 * ones to keep (those in use always among them) and every placement of the missing ones, and keeps
 * the most existing compute instances, then the lexicographically smallest final layout (sorted by
 * start).
 */
final class CiLayoutSearch {
  /** A compute instance that exists: id, compute slices, start, and whether it is in use. */
  record Existing(int id, int slices, int start, boolean inUse) {}

  /** A compute instance to create: compute slices and start. */
  record Created(int slices, int start) {}

  /** The best arrangement: which existing compute instances stay, which go, what is created. */
  record Result(List<Existing> kept, List<Existing> destroyed, List<Created> created) {
    Result {
      kept = List.copyOf(kept);
      destroyed = List.copyOf(destroyed);
      created = List.copyOf(created);
    }
  }

  private static final int MAX_SLICES = 8;

  private final int giSlices;
  private final int[] remaining;
  private final int[] createdStart;
  private int[] bestCreatedStart;
  private int[] bestRemaining;
  private long bestKey;
  private long keptKey;

  private CiLayoutSearch(int giSlices, int remainingCount) {
    this.giSlices = giSlices;
    this.remaining = new int[remainingCount];
    this.createdStart = new int[remainingCount];
  }

  /**
   * The best arrangement of {@code wanted} compute-slice sizes in a GPU instance of {@code
   * giSlices} compute slices that holds {@code existing}.
   *
   * @return the arrangement, or empty when the wanted sizes cannot sit there without removing a
   *     compute instance in use
   */
  static Optional<Result> best(int giSlices, List<Integer> wanted, List<Existing> existing) {
    int n = existing.size();
    if (n > 16 || giSlices > MAX_SLICES) {
      throw new IllegalArgumentException(
          "a GPU instance of " + giSlices + " slices cannot hold " + n + " compute instances");
    }
    int[] wantedCount = new int[MAX_SLICES + 1];
    for (int c : wanted) {
      if (c < 1 || c > giSlices) {
        return Optional.empty();
      }
      wantedCount[c]++;
    }
    int mustKeep = 0;
    for (int i = 0; i < n; i++) {
      if (existing.get(i).inUse()) {
        mustKeep |= 1 << i;
      }
    }
    Result best = null;
    int bestKept = -1;
    long bestLayout = 0;
    for (int keep = 0; keep < 1 << n; keep++) {
      if ((keep & mustKeep) != mustKeep || Integer.bitCount(keep) < bestKept) {
        continue;
      }
      int[] left = wantedCount.clone();
      int occ = 0;
      long keptKey = 0;
      boolean ok = true;
      for (int i = 0; i < n && ok; i++) {
        if ((keep >>> i & 1) == 0) {
          continue;
        }
        Existing e = existing.get(i);
        int mask = sliceMask(e.slices(), e.start());
        ok = e.slices() <= MAX_SLICES && left[e.slices()]-- > 0 && (occ & mask) == 0;
        occ |= mask;
        keptKey |= 1L << (e.start() * MAX_SLICES + e.slices() - 1);
      }
      if (!ok) {
        continue;
      }
      var sizes = new ArrayList<Integer>();
      for (int c = MAX_SLICES; c >= 1; c--) {
        for (int k = 0; k < left[c]; k++) {
          sizes.add(c);
        }
      }
      var search = new CiLayoutSearch(giSlices, sizes.size());
      for (int k = 0; k < sizes.size(); k++) {
        search.remaining[k] = sizes.get(k);
      }
      search.keptKey = keptKey;
      search.place(0, occ, 0);
      if (search.bestCreatedStart == null) {
        continue;
      }
      int keptCount = Integer.bitCount(keep);
      if (keptCount > bestKept || compareLayouts(search.bestKey, bestLayout) < 0) {
        bestKept = keptCount;
        bestLayout = search.bestKey;
        best = search.result(existing, keep);
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Places {@code remaining[k..]} (largest first; equal sizes at increasing starts, since they are
   * interchangeable).
   */
  private void place(int k, int occ, long layout) {
    if (k == remaining.length) {
      // The final layout, as a set of (start, size) bits: the lowest first set bit wins.
      long full = layout | keptKey;
      if (bestCreatedStart == null || compareLayouts(full, bestKey) < 0) {
        bestKey = full;
        bestCreatedStart = createdStart.clone();
        bestRemaining = remaining.clone();
      }
      return;
    }
    int c = remaining[k];
    int from = k > 0 && remaining[k - 1] == c ? createdStart[k - 1] + c : 0;
    for (int start = from; start + c <= giSlices; start += c) {
      int mask = sliceMask(c, start);
      if ((occ & mask) == 0) {
        createdStart[k] = start;
        place(k + 1, occ | mask, layout | 1L << (start * MAX_SLICES + c - 1));
      }
    }
  }

  /**
   * Orders layouts encoded as bits {@code start * 8 + size - 1} by their sorted (start, size) list:
   * the layout whose lowest differing bit is set has the smaller entry there.
   */
  private static int compareLayouts(long a, long b) {
    if (a == b) {
      return 0;
    }
    long lowest = Long.lowestOneBit(a ^ b);
    return (a & lowest) != 0 ? -1 : 1;
  }

  private Result result(List<Existing> existing, int keep) {
    var kept = new ArrayList<Existing>();
    var destroyed = new ArrayList<Existing>();
    for (int i = 0; i < existing.size(); i++) {
      ((keep >>> i & 1) != 0 ? kept : destroyed).add(existing.get(i));
    }
    var created = new ArrayList<Created>();
    for (int k = 0; k < bestRemaining.length; k++) {
      created.add(new Created(bestRemaining[k], bestCreatedStart[k]));
    }
    created.sort((x, y) -> Integer.compare(x.start(), y.start()));
    return new Result(kept, destroyed, created);
  }

  private static int sliceMask(int slices, int start) {
    return ((1 << slices) - 1) << start;
  }
}
