package io.migd.profiles;

/**
 * How one device (a whole GPU or a MIG slice) is shared between pods: migd's {@code time-slicing}
 * and {@code mps} extensions of a config item, and the values of its {@code sharing} map.
 */
public sealed interface Sharing {
  /** CUDA MPS serves at most this many clients per device, so more MPS replicas are invalid. */
  int MAX_MPS_REPLICAS = 48;

  /**
   * How many replicas the device is advertised as.
   *
   * @return at least 1
   */
  int replicas();

  /**
   * The strategy's name as NVIDIA's labels and migd's config keys write it.
   *
   * @return {@code time-slicing} or {@code mps}
   */
  String strategy();

  /**
   * {@code time-slicing: {replicas: N}}: the device is advertised N times and CUDA time-slices it.
   *
   * @param replicas the number of replicas, at least 1
   */
  record TimeSliced(int replicas) implements Sharing {
    /**
     * Validates the count.
     *
     * @throws IllegalArgumentException if replicas is below 1
     */
    public TimeSliced {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be at least 1, got " + replicas);
      }
    }

    @Override
    public String strategy() {
      return "time-slicing";
    }
  }

  /**
   * {@code mps: {replicas: N}}: the device is advertised N times and served by one MPS control
   * daemon that limits each client to 1/N of its threads and memory.
   *
   * @param replicas the number of replicas, 1 to {@link #MAX_MPS_REPLICAS}
   */
  record Mps(int replicas) implements Sharing {
    /**
     * Validates the count.
     *
     * @throws IllegalArgumentException if replicas is below 1 or above 48
     */
    public Mps {
      if (replicas < 1 || replicas > MAX_MPS_REPLICAS) {
        throw new IllegalArgumentException(
            "MPS replicas must be between 1 and " + MAX_MPS_REPLICAS + ", got " + replicas);
      }
    }

    @Override
    public String strategy() {
      return "mps";
    }
  }
}
