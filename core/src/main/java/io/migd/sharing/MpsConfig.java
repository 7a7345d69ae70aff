package io.migd.sharing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * NVIDIA's {@code mpsConfig}: the MPS daemon's defaults for every client of the claim's devices.
 *
 * @param multiUser {@code multiUser}: the daemon runs with {@code -M}
 * @param threads {@code defaultActiveThreadPercentage}
 * @param defaultMemory {@code defaultPinnedDeviceMemoryLimit}, for every device
 * @param perDeviceMemory {@code defaultPerDevicePinnedMemoryLimit}: by device UUID, or by index
 *     into the claim's devices' UUIDs sorted, as written; it overrides {@code defaultMemory}
 */
public record MpsConfig(
    boolean multiUser,
    ThreadPercentage threads,
    MemoryLimit defaultMemory,
    Map<String, MemoryLimit.Mib> perDeviceMemory) {
  /** No limit at all, one user: {@code mpsConfig: {}}. */
  public static final MpsConfig DEFAULTS =
      new MpsConfig(
          false, new ThreadPercentage.ServerDefault(), new MemoryLimit.Unlimited(), Map.of());

  /** Checks every part is there and copies the map (its order kept). */
  public MpsConfig {
    Objects.requireNonNull(threads);
    Objects.requireNonNull(defaultMemory);
    perDeviceMemory = Collections.unmodifiableMap(new LinkedHashMap<>(perDeviceMemory));
  }

  /** The active thread percentage the daemon gives each client by default. */
  public sealed interface ThreadPercentage {
    /** Not set: MPS's own default, 100. */
    record ServerDefault() implements ThreadPercentage {}

    /** Set to {@code value}, 0 to 100. */
    record Percent(int value) implements ThreadPercentage {
      /** Checks the range NVIDIA checks. */
      public Percent {
        if (value < 0 || value > 100) {
          throw new IllegalArgumentException(
              "defaultActiveThreadPercentage " + value + " is not 0 to 100");
        }
      }
    }
  }

  /** A pinned device memory limit per client. */
  public sealed interface MemoryLimit {
    /** No limit. */
    record Unlimited() implements MemoryLimit {}

    /** {@code value} MiB (NVIDIA's {@code floor(bytes / 2^20)}, at least 1). */
    record Mib(long value) implements MemoryLimit {
      /** Checks the value is at least 1 MiB. */
      public Mib {
        if (value < 1) {
          throw new IllegalArgumentException("a pinned memory limit of " + value + " MiB");
        }
      }
    }
  }

  /**
   * The limit of the device {@code uuid} among the claim's devices {@code claimUuids}: its entry by
   * UUID, else by its index in the sorted UUIDs, else the default.
   *
   * @throws IllegalArgumentException naming a key that names none of the claim's devices
   */
  public MemoryLimit memoryOf(String uuid, List<String> claimUuids) {
    List<String> sorted = claimUuids.stream().sorted().toList();
    for (String key : perDeviceMemory.keySet()) {
      if (!sorted.contains(key) && index(key).filter(i -> i < sorted.size()).isEmpty()) {
        throw new IllegalArgumentException(
            "defaultPerDevicePinnedMemoryLimit names "
                + key
                + ", which is neither the UUID nor the index of a device of the claim "
                + sorted);
      }
    }
    if (perDeviceMemory.containsKey(uuid)) {
      return perDeviceMemory.get(uuid);
    }
    String byIndex = Integer.toString(sorted.indexOf(uuid));
    return perDeviceMemory.containsKey(byIndex) ? perDeviceMemory.get(byIndex) : defaultMemory;
  }

  private static Optional<Integer> index(String key) {
    return key.matches("[0-9]{1,4}") ? Optional.of(Integer.parseInt(key)) : Optional.empty();
  }
}
