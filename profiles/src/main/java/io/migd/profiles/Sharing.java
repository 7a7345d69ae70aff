package io.migd.profiles;

import java.util.Objects;

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
   * How the replicas are offered to the kubelet, as NVIDIA's device-plugin config asks.
   *
   * @return {@link Offer#PLAIN} unless a device-plugin config renames the resource or refuses
   *     requests for more than one replica
   */
  Offer offer();

  /**
   * How the replicas of a shared device are offered (NVIDIA's device-plugin config, DESIGN section
   * 13): under {@code <resource>.shared} instead of the device's own resource ({@code renamed}),
   * and whether a container may get only one of them ({@code oneReplicaPerRequest}, NVIDIA's {@code
   * failRequestsGreaterThanOne}).
   *
   * @param renamed whether the replicas are advertised as {@code <resource>.shared}
   * @param oneReplicaPerRequest whether {@code Allocate} refuses more than one replica per
   *     container
   */
  record Offer(boolean renamed, boolean oneReplicaPerRequest) {
    /** Under the device's own resource, any number per container. */
    public static final Offer PLAIN = new Offer(false, false);
  }

  /**
   * {@code time-slicing: {replicas: N}}: the device is advertised N times and CUDA time-slices it.
   *
   * @param replicas the number of replicas, at least 1
   * @param offer how the replicas are offered to the kubelet
   */
  record TimeSliced(int replicas, Offer offer) implements Sharing {
    /**
     * Validates the count.
     *
     * @throws IllegalArgumentException if replicas is below 1
     */
    public TimeSliced {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be at least 1, got " + replicas);
      }
      Objects.requireNonNull(offer);
    }

    /**
     * Time-sliced replicas offered plainly.
     *
     * @param replicas the number of replicas, at least 1
     */
    public TimeSliced(int replicas) {
      this(replicas, Offer.PLAIN);
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
   * @param offer how the replicas are offered to the kubelet
   */
  record Mps(int replicas, Offer offer) implements Sharing {
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
      Objects.requireNonNull(offer);
    }

    /**
     * MPS replicas offered plainly.
     *
     * @param replicas the number of replicas, 1 to {@link #MAX_MPS_REPLICAS}
     */
    public Mps(int replicas) {
      this(replicas, Offer.PLAIN);
    }

    @Override
    public String strategy() {
      return "mps";
    }
  }
}
