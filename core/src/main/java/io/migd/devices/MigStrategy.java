package io.migd.devices;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How MIG slices become kubelet resources ({@code migd.mig-strategy}). */
public enum MigStrategy {
  /** One resource per slice profile: {@code nvidia.com/mig-<profile>}. */
  MIXED,
  /** Every slice is an {@code nvidia.com/gpu}; only when the node has one slice profile. */
  SINGLE,
  /** MIG-enabled GPUs are advertised whole, as {@code nvidia.com/gpu}; slices are not. */
  NONE;

  /** The strategy for its lower-case name, as written in configuration. */
  public static MigStrategy parse(String name) {
    for (MigStrategy s : values()) {
      if (s.wireName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown MIG strategy \""
            + name
            + "\"; use one of "
            + Arrays.stream(values()).map(MigStrategy::wireName).collect(Collectors.joining(", ")));
  }

  /** The name written in configuration and in the {@code nvidia.com/mig.strategy} label. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
