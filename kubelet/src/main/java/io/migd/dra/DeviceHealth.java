package io.migd.dra;

import java.util.Objects;

/**
 * The health of one published device, as the kubelet shows it in the status of the pods that use
 * it.
 *
 * @param message why, in a sentence; empty when there is nothing to say
 */
public record DeviceHealth(String poolName, String deviceName, Health health, String message) {
  /** The kubelet's three states; a device it stops hearing about becomes {@code UNKNOWN}. */
  public enum Health {
    UNKNOWN,
    HEALTHY,
    UNHEALTHY
  }

  public DeviceHealth {
    Objects.requireNonNull(poolName);
    Objects.requireNonNull(deviceName);
    Objects.requireNonNull(health);
    Objects.requireNonNull(message);
  }

  /** A healthy device with nothing to say. */
  public static DeviceHealth healthy(String poolName, String deviceName) {
    return new DeviceHealth(poolName, deviceName, Health.HEALTHY, "");
  }
}
