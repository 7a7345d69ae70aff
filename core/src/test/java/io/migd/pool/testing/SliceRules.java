package io.migd.pool.testing;

import io.migd.pool.Attribute;
import io.migd.pool.CounterSet;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.List;
import java.util.Map;

/**
 * The rules and limits one ResourceSlice must keep on its own, whatever the rest of its pool holds
 * ({@code reference/dra-api.md} section 2.2, Kubernetes 1.35 and 1.36).
 */
final class SliceRules {
  static final int MAX_DRIVER_LENGTH = 63;
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

  private SliceRules() {}

  static void checkSlice(PublishedSlice published, List<String> problems) {
    String where = "slice " + published.name();
    if (published.driver().length() > MAX_DRIVER_LENGTH
        || !KubeNames.isSubdomain(published.driver(), MAX_DRIVER_LENGTH)) {
      problems.add(
          where
              + ": driver \""
              + published.driver()
              + "\" is not a DNS subdomain of at most "
              + MAX_DRIVER_LENGTH
              + " characters");
    }
    if (!KubeNames.isPoolName(published.pool())) {
      problems.add(
          where
              + ": pool name \""
              + published.pool()
              + "\" is not DNS subdomains joined by '/' of at most "
              + KubeNames.MAX_POOL_NAME_LENGTH
              + " characters");
    }
    if (!KubeNames.isSubdomain(published.name(), 253)) {
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
      if (!KubeNames.isLabel(set.name())) {
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
          if (!KubeNames.isLabel(name)) {
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
    if (!KubeNames.isLabel(device.name())) {
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
              if (!KubeNames.isQualifiedName(name)) {
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
              if (!KubeNames.isQualifiedName(name)) {
                problems.add(where + ": capacity name \"" + name + "\" is not a qualified name");
              }
              if (value < 0) {
                problems.add(where + ": capacity " + name + " is negative (" + value + ")");
              }
            });
    RequestPolicyRules.checkDevice(where, device, problems);
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
      if (!KubeNames.isTaintKey(taint.key())) {
        problems.add(where + ": taint key \"" + taint.key() + "\" is not a qualified name");
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
}
