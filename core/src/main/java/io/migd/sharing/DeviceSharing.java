package io.migd.sharing;

import java.util.Objects;

/** How a claim's device is shared among the processes of the containers that reference it. */
public sealed interface DeviceSharing {
  /** No {@code sharing}: the device as it is, for the claim's containers only. */
  record Exclusive() implements DeviceSharing {}

  /**
   * {@code strategy: TimeSlicing}: on a whole GPU, compute mode {@code DEFAULT} and the time slice
   * {@code interval} ({@code Default}, {@code Short}, {@code Medium}, {@code Long} as 0 to 3); on a
   * MIG device nothing changes, as NVIDIA's driver does.
   */
  record TimeSlicing(int interval) implements DeviceSharing {
    /** Checks the interval is one NVIDIA names. */
    public TimeSlicing {
      if (interval < 0 || interval > 3) {
        throw new IllegalArgumentException("time slice interval " + interval + " is not 0 to 3");
      }
    }
  }

  /** {@code strategy: MPS}: one MPS control daemon per device, with {@code config}'s limits. */
  record Mps(MpsConfig config) implements DeviceSharing {
    /** Checks the config is there. */
    public Mps {
      Objects.requireNonNull(config);
    }
  }

  /**
   * A share of a device that allows multiple allocations (DESIGN section 14, Fractions): the
   * device's one MPS daemon, started by its first share ({@code -M}) and stopped by its last, its
   * limits at least the largest share's, and this share's clients held to {@code memoryMib} and
   * {@code computePercent} by their environment.
   */
  record Share(String shareId, long memoryMib, int computePercent) implements DeviceSharing {
    /** Checks the share ID is there and the amounts. */
    public Share {
      Objects.requireNonNull(shareId);
      if (memoryMib <= 0 || computePercent <= 0 || computePercent > 100) {
        throw new IllegalArgumentException(
            "share "
                + shareId
                + ": memory "
                + memoryMib
                + " MiB, compute "
                + computePercent
                + " %");
      }
    }
  }
}
