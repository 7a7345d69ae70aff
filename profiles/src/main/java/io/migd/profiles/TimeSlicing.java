package io.migd.profiles;

/**
 * migd's {@code time-slicing} extension of a config item: how many replicas a GPU without MIG gets.
 * Without the key, migd falls back to the number of MIG devices the item asks for, else 1
 * (docs/contract.md).
 */
public sealed interface TimeSlicing {

  /** The item has no {@code time-slicing} key: migd applies its fallback. */
  record Unset() implements TimeSlicing {}

  /**
   * {@code time-slicing: {replicas: N}}: the GPU is advertised as N replicas.
   *
   * @param replicas the number of replicas, at least 1
   */
  record Replicas(int replicas) implements TimeSlicing {

    /**
     * Validates the count.
     *
     * @throws IllegalArgumentException if replicas is below 1
     */
    public Replicas {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be at least 1, got " + replicas);
      }
    }
  }
}
