package io.migd.reconcile;

import io.migd.ownership.ClaimedDevices;
import java.util.Objects;

/**
 * What the reconcile must know of the kubelet surface: its mode, the devices prepared claims own
 * (DRA mode; in use like a pod's slice, and the owners of a dynamic GPU's instances), and the guard
 * asked before a plan removes a static device.
 */
public record DeviceOwnership(KubeletMode mode, ClaimedDevices claims, StaticDeviceGuard guard) {
  /** Device-plugin mode: no claims, no guard. */
  public static final DeviceOwnership DEVICE_PLUGIN =
      new DeviceOwnership(KubeletMode.DEVICE_PLUGIN, ClaimedDevices.NONE, StaticDeviceGuard.NONE);

  /** Checks every part is there. */
  public DeviceOwnership {
    Objects.requireNonNull(mode);
    Objects.requireNonNull(claims);
    Objects.requireNonNull(guard);
  }

  /** DRA mode over these prepared claims and this guard. */
  public static DeviceOwnership dra(ClaimedDevices claims, StaticDeviceGuard guard) {
    return new DeviceOwnership(KubeletMode.DRA, claims, guard);
  }

  /** Whether this is DRA mode. */
  public boolean dra() {
    return mode == KubeletMode.DRA;
  }
}
