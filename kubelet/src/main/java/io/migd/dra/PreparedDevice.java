package io.migd.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One device a prepared claim got, as the kubelet receives it.
 *
 * @param requestNames the claim's requests this device serves; empty means all of them
 * @param poolName the pool of the device (the node's name)
 * @param deviceName the device's name in its ResourceSlice
 * @param cdiDeviceIds fully qualified CDI device IDs for the container runtime
 * @param shareId the share of a device allocated more than once, or null; only the v1 API carries
 *     it, v1beta1 drops it
 */
public record PreparedDevice(
    List<String> requestNames,
    String poolName,
    String deviceName,
    List<String> cdiDeviceIds,
    String shareId) {
  public PreparedDevice {
    requestNames = List.copyOf(requestNames);
    cdiDeviceIds = List.copyOf(cdiDeviceIds);
    if (Objects.requireNonNull(poolName).isBlank()
        || Objects.requireNonNull(deviceName).isBlank()) {
      throw new IllegalArgumentException("a prepared device needs a pool and a device name");
    }
  }

  /** A device without a share, the usual case. */
  public PreparedDevice(
      List<String> requestNames, String poolName, String deviceName, List<String> cdiDeviceIds) {
    this(requestNames, poolName, deviceName, cdiDeviceIds, null);
  }

  /** The share ID, when the device is shared. */
  public Optional<String> share() {
    return Optional.ofNullable(shareId);
  }
}
