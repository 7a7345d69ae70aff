package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimKey;
import java.time.Duration;
import java.util.Set;

/**
 * What the surfaces hear of prepares and unprepares: how long a claim's prepare took and what it
 * took (the metrics), and which GPUs NVML changed on (the node snapshot observes them again and the
 * pool is rebuilt, so the published order follows every prepare and unprepare). Called on the
 * claim's thread after its answer is decided; an implementation must not block.
 */
public interface ClaimEvents {
  /** What a prepare took. */
  enum PrepareKind {
    /** Devices that existed as they are: a whole GPU, a static slice. */
    STATIC,
    /** At least one MIG instance created at its allocated placement. */
    CREATED,
    /** Idle MIG instances reused, none created. */
    REUSED
  }

  /** Nothing listens. */
  ClaimEvents NONE = new ClaimEvents() {};

  /** A claim was prepared now (not answered again from the checkpoint). */
  default void prepared(ClaimKey claim, PrepareKind kind, Duration took) {}

  /**
   * A prepare found an allocation over a shared device, or a share over a device another claim
   * holds (DESIGN section 14): the claim failed with {@code sentence}, and the node's twins are to
   * be withdrawn until migd restarts.
   */
  default void shareOverlap(ClaimKey claim, String sentence) {}

  /** A prepare or unprepare touched these GPUs (whatever its answer). */
  default void touched(Set<GpuIndex> gpus) {}
}
