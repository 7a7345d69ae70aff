package io.migd.plan;

import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Complete search for the compute instances of one GPU instance.
 *
 * <p>A compute instance may sit at the placements its compute-instance profile lists (NVML's
 * answer, or the slice rule until NVML has answered), and compute instances do not overlap. Given
 * the sizes wanted and the compute instances that exist, the search tries every subset of the
 * existing ones to keep (those in use always among them) and every placement of the missing ones,
 * and keeps the most existing compute instances, then the lexicographically smallest final layout
 * (sorted by start, then size).
 */
final class CiLayoutSearch {
  /** Compute slices are bits of a {@code long}; no GPU instance known has more than 8. */
  static final int MAX_SLICES = Long.SIZE;

  /** A compute instance that exists: its id, placement in the GPU instance, and whether in use. */
  record Existing(int id, Placement placement, boolean inUse) {
    int slices() {
      return placement.size();
    }

    int start() {
      return placement.start();
    }
  }

  /** A compute instance to create: its compute slices and placement. */
  record Created(int slices, Placement placement) {}

  /** The best arrangement: which existing compute instances stay, which go, what is created. */
  record Result(List<Existing> kept, List<Existing> destroyed, List<Created> created) {
    Result {
      kept = List.copyOf(kept);
      destroyed = List.copyOf(destroyed);
      created = List.copyOf(created);
    }
  }

  private static final Comparator<Placement> BY_START =
      Comparator.comparingInt(Placement::start).thenComparingInt(Placement::size);

  private final List<Existing> existing;
  private final boolean[] keep;
  private final int[] remaining;
  private final long[][] masks;
  private final List<List<Placement>> placements;
  private final int[] createdAt;
  private int bestKept = -1;
  private List<Placement> bestLayout;
  private boolean[] bestKeep;
  private Placement[] bestCreated;

  private CiLayoutSearch(GiProfile gi, List<Existing> existing, int[] remaining) {
    this.existing = existing;
    this.keep = new boolean[existing.size()];
    this.remaining = remaining;
    this.masks = new long[remaining.length][];
    this.placements = new ArrayList<>(remaining.length);
    this.createdAt = new int[remaining.length];
    for (int k = 0; k < remaining.length; k++) {
      List<Placement> here = gi.ciProfileBySlices(remaining[k]).orElseThrow().placements();
      placements.add(here);
      masks[k] = new long[here.size()];
      for (int i = 0; i < here.size(); i++) {
        masks[k][i] = mask(here.get(i));
      }
    }
  }

  /**
   * The best arrangement of {@code wanted} compute-slice sizes in a GPU instance of profile {@code
   * gi} that holds {@code existing}.
   *
   * @return the arrangement, or empty when the wanted sizes cannot sit there without removing a
   *     compute instance in use (or the profile offers no compute instance of a wanted size)
   */
  static Optional<Result> best(GiProfile gi, List<Integer> wanted, List<Existing> existing) {
    if (gi.slices() > MAX_SLICES
        || existing.stream().anyMatch(e -> e.placement().end() > MAX_SLICES)) {
      return Optional.empty();
    }
    var sizes = new ArrayList<Integer>(wanted);
    for (int c : sizes) {
      Optional<CiProfile> profile = gi.ciProfileBySlices(c);
      if (profile.isEmpty()) {
        return Optional.empty();
      }
    }
    // Largest first: they have the fewest placements, so dead ends show early.
    sizes.sort(Comparator.reverseOrder());
    var search =
        new CiLayoutSearch(
            gi, List.copyOf(existing), sizes.stream().mapToInt(Integer::intValue).toArray());
    search.chooseKept(0, 0L, 0);
    return Optional.ofNullable(search.result());
  }

  /** Decides for each existing compute instance from {@code i} on whether it stays. */
  private void chooseKept(int i, long occ, int kept) {
    if (kept + existing.size() - i < bestKept) {
      return;
    }
    if (i == existing.size()) {
      place(0, occ, kept);
      return;
    }
    Existing e = existing.get(i);
    long m = mask(e.placement());
    if ((occ & m) == 0 && takesWanted(e.slices())) {
      keep[i] = true;
      chooseKept(i + 1, occ | m, kept + 1);
      keep[i] = false;
      releaseWanted(e.slices());
    }
    if (!e.inUse()) {
      chooseKept(i + 1, occ, kept);
    }
  }

  /** Marks one wanted compute instance of {@code slices} as taken by a kept one, if any is left. */
  private boolean takesWanted(int slices) {
    for (int k = remaining.length - 1; k >= 0; k--) {
      if (remaining[k] == slices) {
        remaining[k] = -slices;
        return true;
      }
    }
    return false;
  }

  private void releaseWanted(int slices) {
    for (int k = 0; k < remaining.length; k++) {
      if (remaining[k] == -slices) {
        remaining[k] = slices;
        return;
      }
    }
  }

  /**
   * Places the wanted compute instances not taken by kept ones, from {@code k} on (largest first;
   * equal sizes at increasing placement indexes, since they are interchangeable).
   */
  private void place(int k, long occ, int kept) {
    if (k == remaining.length) {
      consider(kept);
      return;
    }
    int c = remaining[k];
    if (c < 0) {
      place(k + 1, occ, kept);
      return;
    }
    int previous = k - 1;
    while (previous >= 0 && remaining[previous] < 0) {
      previous--;
    }
    int from = previous >= 0 && remaining[previous] == c ? createdAt[previous] + 1 : 0;
    for (int i = from; i < masks[k].length; i++) {
      if ((occ & masks[k][i]) == 0) {
        createdAt[k] = i;
        place(k + 1, occ | masks[k][i], kept);
      }
    }
  }

  private void consider(int kept) {
    var layout = new ArrayList<Placement>();
    for (int i = 0; i < existing.size(); i++) {
      if (keep[i]) {
        layout.add(existing.get(i).placement());
      }
    }
    for (int k = 0; k < remaining.length; k++) {
      if (remaining[k] > 0) {
        layout.add(placements.get(k).get(createdAt[k]));
      }
    }
    layout.sort(BY_START);
    if (kept > bestKept || (kept == bestKept && compare(layout, bestLayout) < 0)) {
      bestKept = kept;
      bestLayout = layout;
      bestKeep = keep.clone();
      bestCreated = new Placement[remaining.length];
      for (int k = 0; k < remaining.length; k++) {
        if (remaining[k] > 0) {
          bestCreated[k] = placements.get(k).get(createdAt[k]);
        }
      }
    }
  }

  private static int compare(List<Placement> a, List<Placement> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = BY_START.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private Result result() {
    if (bestKeep == null) {
      return null;
    }
    var kept = new ArrayList<Existing>();
    var destroyed = new ArrayList<Existing>();
    for (int i = 0; i < existing.size(); i++) {
      (bestKeep[i] ? kept : destroyed).add(existing.get(i));
    }
    var created = new ArrayList<Created>();
    for (int k = 0; k < bestCreated.length; k++) {
      if (bestCreated[k] != null) {
        created.add(new Created(Math.abs(remaining[k]), bestCreated[k]));
      }
    }
    created.sort(Comparator.comparing(Created::placement, BY_START));
    return new Result(kept, destroyed, created);
  }

  private static long mask(Placement at) {
    long bits = at.size() >= Long.SIZE ? -1L : (1L << at.size()) - 1;
    return bits << at.start();
  }
}
