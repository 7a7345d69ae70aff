package io.migd.pool.testing;

import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

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
  static final int MAX_DRIVER_LENGTH = 63;
  static final int MAX_POOL_NAME_LENGTH = 253;
  static final int MAX_STRING_ATTRIBUTE_LENGTH = 64;
  static final int MAX_ATTRIBUTES_AND_CAPACITIES = 32;
  static final int MAX_DEVICES = 128;
  static final int MAX_DEVICES_WITH_COUNTERS_OR_TAINTS = 64;
  static final int MAX_COUNTER_SETS_PER_SLICE = 8;
  static final int MAX_COUNTERS_PER_SET = 32;
  static final int MAX_CONSUMPTIONS_PER_DEVICE = 2;
  static final int MAX_COUNTERS_PER_CONSUMPTION = 32;
  static final int MAX_CONSUMED_COUNTERS_PER_SLICE = 2048;
  static final int MAX_TAINTS_PER_DEVICE = 16;

  private static final Pattern TAINT_KEY_NAME =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

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
      checkSlice(slice, problems);
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

  private static void checkSlice(PublishedSlice published, List<String> problems) {
    String where = "slice " + published.name();
    if (published.driver().length() > MAX_DRIVER_LENGTH
        || !isSubdomain(published.driver(), MAX_DRIVER_LENGTH)) {
      problems.add(
          where
              + ": driver \""
              + published.driver()
              + "\" is not a DNS subdomain of at most "
              + MAX_DRIVER_LENGTH
              + " characters");
    }
    if (!isPoolName(published.pool())) {
      problems.add(
          where
              + ": pool name \""
              + published.pool()
              + "\" is not DNS subdomains joined by '/' of at most "
              + MAX_POOL_NAME_LENGTH
              + " characters");
    }
    if (!isSubdomain(published.name(), 253)) {
      problems.add(where + ": the slice's name is not a DNS subdomain");
    }
    if (published.generation() < 0) {
      problems.add(where + ": generation " + published.generation() + " is negative");
    }
    if (published.sliceCount() < 1) {
      problems.add(where + ": resourceSliceCount " + published.sliceCount() + " is not positive");
    }
    switch (published.slice().content()) {
      case PoolSlice.Counters(var sets) -> checkCounterSets(where, sets, problems);
      case PoolSlice.Devices(var _, var devices) -> checkDevices(where, devices, problems);
    }
  }

  private static void checkCounterSets(String where, List<CounterSet> sets, List<String> problems) {
    if (sets.size() > MAX_COUNTER_SETS_PER_SLICE) {
      problems.add(
          where
              + " has "
              + sets.size()
              + " counter sets, the API allows "
              + MAX_COUNTER_SETS_PER_SLICE);
    }
    for (var set : sets) {
      if (!isLabel(set.name())) {
        problems.add(where + ": counter set name \"" + set.name() + "\" is not a DNS label");
      }
      if (set.counters().size() > MAX_COUNTERS_PER_SET) {
        problems.add(
            where
                + ": counter set "
                + set.name()
                + " has "
                + set.counters().size()
                + " counters, the API allows "
                + MAX_COUNTERS_PER_SET);
      }
      checkCounters(where + ": counter set " + set.name(), set.counters(), problems);
    }
  }

  private static void checkCounters(
      String where, Map<String, Long> counters, List<String> problems) {
    counters.forEach(
        (name, value) -> {
          if (!isLabel(name)) {
            problems.add(where + ": counter name \"" + name + "\" is not a DNS label");
          }
          if (value < 0) {
            problems.add(where + ": counter " + name + " is negative (" + value + ")");
          }
        });
  }

  private static void checkDevices(String where, List<PoolDevice> devices, List<String> problems) {
    boolean strict =
        devices.stream().anyMatch(d -> !d.consumes().isEmpty() || !d.taints().isEmpty());
    int limit = strict ? MAX_DEVICES_WITH_COUNTERS_OR_TAINTS : MAX_DEVICES;
    if (devices.size() > limit) {
      problems.add(
          where
              + " has "
              + devices.size()
              + " devices, the API allows "
              + limit
              + (strict ? " when devices consume counters or have taints" : ""));
    }
    long consumed =
        devices.stream()
            .flatMap(d -> d.consumes().stream())
            .mapToLong(c -> c.counters().size())
            .sum();
    if (consumed > MAX_CONSUMED_COUNTERS_PER_SLICE) {
      problems.add(
          where
              + " consumes "
              + consumed
              + " counters in all, the API allows "
              + MAX_CONSUMED_COUNTERS_PER_SLICE);
    }
    for (var device : devices) {
      checkDevice(where + ": device " + device.name(), device, problems);
    }
  }

  private static void checkDevice(String where, PoolDevice device, List<String> problems) {
    if (!isLabel(device.name())) {
      problems.add(where + ": the name is not a DNS label of at most 63 characters");
    }
    int entries = device.attributes().size() + device.capacity().size();
    if (entries > MAX_ATTRIBUTES_AND_CAPACITIES) {
      problems.add(
          where
              + " has "
              + entries
              + " attributes and capacities, the API allows "
              + MAX_ATTRIBUTES_AND_CAPACITIES);
    }
    device
        .attributes()
        .forEach(
            (name, value) -> {
              if (!isQualifiedName(name)) {
                problems.add(where + ": attribute name \"" + name + "\" is not a qualified name");
              }
              if (textLength(value) > MAX_STRING_ATTRIBUTE_LENGTH) {
                problems.add(
                    where
                        + ": attribute "
                        + name
                        + " is longer than "
                        + MAX_STRING_ATTRIBUTE_LENGTH
                        + " characters");
              }
            });
    device
        .capacity()
        .forEach(
            (name, value) -> {
              if (!isQualifiedName(name)) {
                problems.add(where + ": capacity name \"" + name + "\" is not a qualified name");
              }
              if (value < 0) {
                problems.add(where + ": capacity " + name + " is negative (" + value + ")");
              }
            });
    if (device.consumes().size() > MAX_CONSUMPTIONS_PER_DEVICE) {
      problems.add(
          where
              + " consumes "
              + device.consumes().size()
              + " counter sets, the API allows "
              + MAX_CONSUMPTIONS_PER_DEVICE);
    }
    for (var consumption : device.consumes()) {
      if (consumption.counters().size() > MAX_COUNTERS_PER_CONSUMPTION) {
        problems.add(
            where
                + " consumes "
                + consumption.counters().size()
                + " counters of "
                + consumption.counterSet()
                + ", the API allows "
                + MAX_COUNTERS_PER_CONSUMPTION);
      }
      checkCounters(
          where + " consuming " + consumption.counterSet(), consumption.counters(), problems);
    }
    if (device.taints().size() > MAX_TAINTS_PER_DEVICE) {
      problems.add(
          where
              + " has "
              + device.taints().size()
              + " taints, the API allows "
              + MAX_TAINTS_PER_DEVICE);
    }
    for (Taint taint : device.taints()) {
      if (!isTaintKey(taint.key())) {
        problems.add(where + ": taint key \"" + taint.key() + "\" is not a qualified name");
      }
    }
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

  private static int textLength(Attribute value) {
    return switch (value) {
      case Attribute.Text(var text) -> text.length();
      case Attribute.Version(var version) -> version.length();
      case Attribute.Int _, Attribute.Bool _ -> 0;
    };
  }

  /**
   * A DNS label: at most 63 of {@code [a-z0-9-]}, starting and ending alphanumeric. Written out
   * instead of a regular expression, which cost most of the fragmentation benchmark's time.
   */
  private static boolean isLabel(String name) {
    return isLabel(name, 0, name.length());
  }

  private static boolean isLabel(String name, int from, int to) {
    if (to <= from || to - from > 63 || name.charAt(from) == '-' || name.charAt(to - 1) == '-') {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /** DNS labels joined by '.', at most {@code maxLength} in all. */
  private static boolean isSubdomain(String name, int maxLength) {
    if (name.length() > maxLength) {
      return false;
    }
    int from = 0;
    for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', from)) {
      if (!isLabel(name, from, dot)) {
        return false;
      }
      from = dot + 1;
    }
    return isLabel(name, from, name.length());
  }

  private static boolean isCIdentifier(String id) {
    if (id.isEmpty() || Character.isDigit(id.charAt(0))) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPoolName(String name) {
    if (name.isEmpty() || name.length() > MAX_POOL_NAME_LENGTH) {
      return false;
    }
    for (var part : name.split("/", -1)) {
      if (!isSubdomain(part, 253)) {
        return false;
      }
    }
    return true;
  }

  /** A C identifier of at most 32 characters, optionally after a DNS subdomain (<= 63) and '/'. */
  private static boolean isQualifiedName(String name) {
    int slash = name.indexOf('/');
    String id = slash < 0 ? name : name.substring(slash + 1);
    if (slash >= 0 && !isSubdomain(name.substring(0, slash), 63)) {
      return false;
    }
    return id.length() <= 32 && isCIdentifier(id);
  }

  /** A label key: an optional DNS subdomain prefix and '/', then a name of at most 63. */
  private static boolean isTaintKey(String key) {
    int slash = key.indexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (slash >= 0 && !isSubdomain(key.substring(0, slash), 253)) {
      return false;
    }
    return name.length() <= 63 && TAINT_KEY_NAME.matcher(name).matches();
  }
}
