package io.migd.pool.testing;

import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Checks published ResourceSlices against the rules and limits of {@code resource.k8s.io/v1} as
 * Kubernetes 1.35 and 1.36 enforce them ({@code reference/dra-api.md} section 2.2): what the API
 * server would refuse to store, and what makes the scheduler treat a pool as incomplete or invalid.
 *
 * <p>Every slice is checked on its own (names, sizes, limits); the pool rules (device and counter
 * set names unique, consumed counters that exist, every slice of the highest generation there) are
 * checked on each pool's highest generation, the only one the scheduler reads.
 */
public final class PoolValidator {
  private PoolValidator() {}

  /** Every problem of these slices, one sentence each; empty when the API and scheduler accept. */
  public static List<String> problems(List<PublishedSlice> slices) {
    return check(slices).problems();
  }

  /**
   * Each pool's slices of its highest generation, sorted by slice name, pools by driver then name.
   *
   * @throws InvalidPoolException when any slice or pool breaks a rule
   */
  public static SequencedMap<PoolKey, List<PublishedSlice>> requireValid(
      List<PublishedSlice> slices) {
    var report = check(slices);
    if (!report.problems().isEmpty()) {
      throw new InvalidPoolException(report.problems());
    }
    return report.current();
  }

  private record Report(
      SequencedMap<PoolKey, List<PublishedSlice>> current, List<String> problems) {}

  private static Report check(List<PublishedSlice> slices) {
    var problems = new ArrayList<String>();
    for (var slice : slices) {
      SliceRules.checkSlice(slice, problems);
    }
    var current = currentByPool(slices, problems);
    for (var pool : current.values()) {
      checkPool(pool, problems);
    }
    return new Report(current, problems);
  }

  private static TreeMap<PoolKey, List<PublishedSlice>> currentByPool(
      List<PublishedSlice> slices, List<String> problems) {
    var byPool = new TreeMap<PoolKey, List<PublishedSlice>>();
    for (var slice : slices) {
      byPool.computeIfAbsent(PoolKey.of(slice), _ -> new ArrayList<>()).add(slice);
    }
    var current = new TreeMap<PoolKey, List<PublishedSlice>>();
    byPool.forEach(
        (key, all) -> {
          long generation = all.stream().mapToLong(PublishedSlice::generation).max().orElseThrow();
          var latest =
              all.stream()
                  .filter(s -> s.generation() == generation)
                  .sorted(Comparator.comparing(PublishedSlice::name))
                  .toList();
          var counts = latest.stream().map(PublishedSlice::sliceCount).distinct().toList();
          if (counts.size() > 1) {
            problems.add(
                key
                    + " generation "
                    + generation
                    + ": slices disagree on resourceSliceCount "
                    + counts);
          } else if (counts.getFirst() != latest.size()) {
            problems.add(
                key
                    + " generation "
                    + generation
                    + " is incomplete: resourceSliceCount "
                    + counts.getFirst()
                    + " but "
                    + latest.size()
                    + " slices published");
          }
          current.put(key, latest);
        });
    return current;
  }

  private static void checkPool(List<PublishedSlice> slices, List<String> problems) {
    var devices = new HashSet<String>();
    var sets = new HashMap<String, CounterSet>();
    for (var slice : slices) {
      if (slice.slice().content() instanceof PoolSlice.Counters(var counterSets)) {
        for (var set : counterSets) {
          if (sets.putIfAbsent(set.name(), set) != null) {
            problems.add(PoolKey.of(slice) + ": counter set " + set.name() + " is published twice");
          }
        }
      }
    }
    for (var slice : slices) {
      if (slice.slice().content() instanceof PoolSlice.Devices(var _, var list)) {
        for (var device : list) {
          if (!devices.add(device.name())) {
            problems.add(PoolKey.of(slice) + ": device " + device.name() + " is published twice");
          }
          for (var consumption : device.consumes()) {
            checkReference(slice, device, consumption, sets, problems);
          }
        }
      }
    }
  }

  private static void checkReference(
      PublishedSlice slice,
      PoolDevice device,
      CounterConsumption consumption,
      Map<String, CounterSet> sets,
      List<String> problems) {
    String where = "slice " + slice.name() + ": device " + device.name();
    var set = sets.get(consumption.counterSet());
    if (set == null) {
      problems.add(
          where + " consumes counter set " + consumption.counterSet() + ", which the pool lacks");
      return;
    }
    for (var counter : consumption.counters().keySet()) {
      if (!set.counters().containsKey(counter)) {
        problems.add(
            where
                + " consumes counter "
                + counter
                + " of "
                + set.name()
                + ", which that set lacks");
      }
    }
  }
}
