package io.migd.claims;

import io.migd.layout.DeviceNames;
import io.migd.layout.LiveGpuInstance;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimedDevice;
import io.migd.pool.DeviceOrigin;
import io.migd.profiles.Placement;
import java.util.Collection;
import java.util.List;

/**
 * The check a prepare makes that the scheduler kept shares and exclusive devices apart (DESIGN
 * section 14, Fractions, "Versions"): an allocation against its GPU's prepared instances and
 * shares, both ways. Before Kubernetes 1.36.2 the scheduler ignored committed shares when it
 * counted a GPU's counters, so it could allocate an exclusive device over a shared one, or a share
 * over a device another claim holds; the first such overlap fails that claim, and the node's twins
 * are withdrawn until migd restarts.
 */
final class ShareOverlaps {
  private ShareOverlaps() {}

  /** An allocation over a shared device, or a share over a device another claim holds. */
  static final class Overlap extends RuntimeException {
    Overlap(String sentence) {
      super(sentence);
    }
  }

  /**
   * Refuses device {@code name} (at {@code origin}) when it overlaps a device of {@code others} on
   * its GPU and one of the two is a share (two shares of the same twin never overlap: they share
   * its instance).
   *
   * @param seen the GPU instances NVML shows on the GPU now
   * @throws Overlap naming the device in the way, its claim, and the likely cause
   */
  static void check(
      String name,
      DeviceOrigin origin,
      List<ClaimedDevice> others,
      Collection<LiveGpuInstance> seen) {
    boolean share = DeviceNames.sharedDevice(name).isPresent();
    for (ClaimedDevice other : others) {
      if (!other.gpu().equals(origin.gpu())) {
        continue;
      }
      boolean otherShare = DeviceNames.sharedDevice(other.deviceName()).isPresent();
      if ((!share && !otherShare) || other.deviceName().equals(name)) {
        continue;
      }
      boolean overlaps =
          switch (origin) {
            case DeviceOrigin.WholeGpu _ -> true;
            case DeviceOrigin.DynamicPlacement p ->
                other.device().overlaps(new Placement(p.start(), p.size()), seen);
            case DeviceOrigin.StaticSlice _ -> other.device() instanceof ClaimDevice.Whole;
          };
      if (overlaps) {
        throw new Overlap(
            (share ? "shared device " + name : "device " + name)
                + " was allocated over "
                + (otherShare ? "shared device " : "device ")
                + other.deviceName()
                + " (prepared for claim "
                + other.key().label()
                + "): is kube-scheduler older than 1.36.2?");
      }
    }
  }
}
