package io.migd.reconcile;

import io.migd.ownership.ClaimedDevices;
import java.util.Objects;

/**
 * What the reconcile must know of the kubelet surface: its mode, the devices prepared claims own
 * (DRA mode; in use like a pod's slice, and the owners of a dynamic GPU's instances), the guard
 * asked before a plan removes a static device, and whether the cluster takes dynamic GPUs at all.
 */
public record DeviceOwnership(
    KubeletMode mode,
    ClaimedDevices claims,
    StaticDeviceGuard guard,
    PartitionableDevices partitionable) {
  /** Device-plugin mode: no claims, no guard. */
  public static final DeviceOwnership DEVICE_PLUGIN =
      new DeviceOwnership(
          KubeletMode.DEVICE_PLUGIN,
          ClaimedDevices.NONE,
          StaticDeviceGuard.NONE,
          PartitionableDevices.AVAILABLE);

  /** Checks every part is there. */
  public DeviceOwnership {
    Objects.requireNonNull(mode);
    Objects.requireNonNull(claims);
    Objects.requireNonNull(guard);
    Objects.requireNonNull(partitionable);
  }

  /** DRA mode over these prepared claims and this guard, on a cluster that takes dynamic GPUs. */
  public static DeviceOwnership dra(ClaimedDevices claims, StaticDeviceGuard guard) {
    return dra(claims, guard, PartitionableDevices.AVAILABLE);
  }

  /** DRA mode over these prepared claims and this guard, dynamic GPUs as {@code partitionable}. */
  public static DeviceOwnership dra(
      ClaimedDevices claims, StaticDeviceGuard guard, PartitionableDevices partitionable) {
    return new DeviceOwnership(KubeletMode.DRA, claims, guard, partitionable);
  }

  /** Whether this is DRA mode. */
  public boolean dra() {
    return mode == KubeletMode.DRA;
  }
}
