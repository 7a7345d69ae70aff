package io.migd.pool.testing;

import io.migd.pool.Allocation;
import io.migd.pool.PoolDevice;
import io.migd.pool.RequestPolicy;
import java.util.List;

/**
 * The API's rules for the capacity request policies of a device that allows multiple allocations
 * (Kubernetes' {@code validateDeviceCapacity} of {@code resource.k8s.io/v1}, 1.36's integer path):
 * the API server refuses a slice that breaks one, so the scheduler loses the whole slice.
 */
final class RequestPolicyRules {
  static final int MAX_VALID_VALUES = 10;

  private RequestPolicyRules() {}

  static void checkDevice(String where, PoolDevice device, List<String> problems) {
    switch (device.allocation()) {
      case Allocation.Exclusive _ -> {}
      case Allocation.Shared(var policies) ->
          policies.forEach(
              (name, policy) -> {
                var value = device.capacity().get(name);
                if (value == null) {
                  problems.add(
                      where
                          + ": request policy for capacity "
                          + name
                          + ", which the device lacks (a policy is part of its capacity)");
                } else {
                  check(where + ": capacity " + name + " requestPolicy", policy, value, problems);
                }
              });
    }
  }

  private static void check(String where, RequestPolicy policy, long value, List<String> problems) {
    if (policy.defaultValue() < 0) {
      problems.add(where + ": default " + policy.defaultValue() + " is negative");
    }
    switch (policy) {
      case RequestPolicy.Values(var byDefault, var values) ->
          checkValues(where, byDefault, values, value, problems);
      case RequestPolicy.Range range -> checkRange(where, range, value, problems);
    }
  }

  private static void checkValues(
      String where, long byDefault, List<Long> values, long value, List<String> problems) {
    if (values.isEmpty()) {
      problems.add(
          where + ": validValues is empty (the API would read a policy with a default only)");
    }
    if (values.size() > MAX_VALID_VALUES) {
      problems.add(
          where
              + ": validValues has "
              + values.size()
              + " entries, the API allows "
              + MAX_VALID_VALUES);
    }
    if (!values.contains(byDefault)) {
      problems.add(
          where + ": default " + byDefault + " is not valid according to the requestPolicy");
    }
    for (int i = 1; i < values.size(); i++) {
      if (values.get(i).equals(values.get(i - 1))) {
        problems.add(where + ": validValues lists " + values.get(i) + " twice");
      } else if (values.get(i) < values.get(i - 1)) {
        problems.add(where + ": validValues must be sorted in ascending order " + values);
      }
    }
    for (var entry : values) {
      if (entry < 0) {
        problems.add(where + ": valid value " + entry + " is negative");
      }
      if (entry > value) {
        problems.add(where + ": valid value " + entry + " is above the capacity's value " + value);
      }
    }
  }

  private static void checkRange(
      String where, RequestPolicy.Range range, long value, List<String> problems) {
    long min = range.min();
    long byDefault = range.defaultValue();
    if (min < 0) {
      problems.add(where + ": validRange min " + min + " is negative");
    }
    if (min > value) {
      problems.add(where + ": validRange min " + min + " is above the capacity's value " + value);
    }
    if (byDefault < min) {
      problems.add(where + ": default " + byDefault + " is below validRange min " + min);
    }
    if (range.max().isPresent()) {
      long max = range.max().getAsLong();
      if (max < min) {
        problems.add(where + ": validRange max " + max + " is below min " + min);
      }
      if (max > value) {
        problems.add(where + ": validRange max " + max + " is above the capacity's value " + value);
      }
      if (byDefault > max) {
        problems.add(where + ": default " + byDefault + " is above validRange max " + max);
      }
    }
    if (range.step().isPresent()) {
      long step = range.step().getAsLong();
      if (step <= 0) {
        problems.add(where + ": validRange step " + step + " is not positive");
        return;
      }
      if (min > value - step) {
        problems.add(
            where
                + ": validRange min + step ("
                + min
                + " + "
                + step
                + ") is above the capacity's value "
                + value);
      }
      if ((byDefault - min) % step != 0) {
        problems.add(
            where
                + ": default "
                + byDefault
                + " is not a multiple of a given step ("
                + step
                + ") from ("
                + min
                + ")");
      }
      if (range.max().isPresent() && (range.max().getAsLong() - min) % step != 0) {
        problems.add(
            where
                + ": validRange max "
                + range.max().getAsLong()
                + " is not a multiple of a given step ("
                + step
                + ") from ("
                + min
                + ")");
      }
    }
  }
}
