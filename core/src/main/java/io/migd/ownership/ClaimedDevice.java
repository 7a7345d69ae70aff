package io.migd.ownership;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.Objects;

/**
 * A device a prepared claim owns, with its claim, as the readers of the checkpoint see it: the
 * pool, the reconcile, the REST surface and the metrics.
 */
public record ClaimedDevice(CheckpointClaim claim, CheckpointClaim.Device entry) {
  /** Checks every part is there. */
  public ClaimedDevice {
    Objects.requireNonNull(claim);
    Objects.requireNonNull(entry);
  }

  /** The owning claim. */
  public ClaimKey key() {
    return claim.claim();
  }

  /** The device, and what exists of it. */
  public ClaimDevice device() {
    return entry.device();
  }

  /** The GPU it is on. */
  public GpuIndex gpu() {
    return entry.gpu();
  }

  /** The device's name in the pool. */
  public String deviceName() {
    return entry.name();
  }

  /** The DeviceClass of the claim's request it serves, empty when not known. */
  public String deviceClass() {
    return entry.deviceClass();
  }

  /** The pods its claim is reserved for, with the containers that reference the claim. */
  public List<ReservedPod> pods() {
    return claim.pods();
  }

  /** Whether its claim's prepare completed (false: started, the instance may be half made). */
  public boolean completed() {
    return claim.completed();
  }

  /**
   * Whether the claim's prepare made it on a dynamic GPU, as against a static device handed out as
   * it was: a GPU with made devices that is static now is turning from dynamic to static (DESIGN
   * section 12), also after a restart.
   */
  public boolean created() {
    return entry.kind() == CheckpointClaim.Kind.CREATED;
  }
}
