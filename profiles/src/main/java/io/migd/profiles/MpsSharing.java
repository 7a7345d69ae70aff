package io.migd.profiles;

/**
 * migd's {@code mps} extension of a config item: a GPU without MIG shared by CUDA MPS in N replicas
 * instead of time-sliced. An item has {@code time-slicing} or {@code mps}, not both.
 */
public sealed interface MpsSharing {

  /** The item has no {@code mps} key. */
  record Unset() implements MpsSharing {}

  /**
   * {@code mps: {replicas: N}}.
   *
   * @param replicas the number of replicas, 1 to {@link Sharing#MAX_MPS_REPLICAS}
   */
  record Replicas(int replicas) implements MpsSharing {
    /**
     * Validates the count.
     *
     * @throws IllegalArgumentException if replicas is below 1 or above 48
     */
    public Replicas {
      new Sharing.Mps(replicas);
    }
  }
}
