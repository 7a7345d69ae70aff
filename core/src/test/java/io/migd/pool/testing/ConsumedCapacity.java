package io.migd.pool.testing;

import io.migd.pool.Allocation;
import io.migd.pool.PoolDevice;
import io.migd.pool.RequestPolicy;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a request consumes of a device's capacities, as the Kubernetes 1.36 allocator computes it
 * ({@code calculateConsumedCapacity} and {@code CmpRequestOverCapacity}).
 */
final class ConsumedCapacity {
  private ConsumedCapacity() {}

  /**
   * What one share consumes of every capacity of {@code device}, a device that allows multiple
   * allocations: a capacity the request names is rounded up by its policy (a range's {@code min},
   * then {@code min + k * step}; a list's smallest entry at least the request) or taken as asked
   * without one; a capacity it omits consumes the policy's {@code default}, or the whole value
   * without a policy.
   *
   * @return empty when the device cannot serve the request: it lacks a capacity the request names,
   *     or the rounded amount is above the range's {@code max} or above every listed value
   */
  static Optional<SortedMap<String, Long>> ofShare(PoolDevice device, Map<String, Long> requests) {
    if (!device.capacity().keySet().containsAll(requests.keySet())) {
      return Optional.empty();
    }
    Map<String, RequestPolicy> policies =
        device.allocation() instanceof Allocation.Shared(var shared) ? shared : Map.of();
    var consumed = new TreeMap<String, Long>();
    for (var capacity : device.capacity().entrySet()) {
      var policy = policies.get(capacity.getKey());
      var asked = requests.get(capacity.getKey());
      Optional<Long> amount;
      if (asked == null) {
        amount = Optional.of(policy == null ? capacity.getValue() : policy.defaultValue());
      } else {
        amount = policy == null ? Optional.of(asked) : rounded(policy, asked);
      }
      if (amount.isEmpty()) {
        return Optional.empty();
      }
      consumed.put(capacity.getKey(), amount.get());
    }
    return Optional.of(consumed);
  }

  /**
   * Whether a device allocated to one claim serves the request: it has every capacity the request
   * names, each at least the amount asked (dedicated devices consume nothing, the request only
   * filters).
   */
  static boolean fitsDedicated(PoolDevice device, Map<String, Long> requests) {
    return requests.entrySet().stream()
        .allMatch(
            r -> {
              var value = device.capacity().get(r.getKey());
              return value != null && r.getValue() <= value;
            });
  }

  private static Optional<Long> rounded(RequestPolicy policy, long asked) {
    return switch (policy) {
      case RequestPolicy.Range(var _, var min, var max, var step) -> {
        long amount = Math.max(asked, min);
        if (step.isPresent()) {
          try {
            amount =
                Math.addExact(
                    min,
                    Math.multiplyExact(
                        Math.ceilDiv(amount - min, step.getAsLong()), step.getAsLong()));
          } catch (ArithmeticException tooLarge) {
            yield Optional.empty();
          }
        }
        yield max.isPresent() && amount > max.getAsLong() ? Optional.empty() : Optional.of(amount);
      }
      case RequestPolicy.Values(var _, var values) ->
          values.stream().filter(v -> v >= asked).min(Long::compare);
    };
  }
}
