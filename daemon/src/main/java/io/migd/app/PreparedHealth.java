package io.migd.app;

import io.migd.dra.DeviceHealth;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The health the kubelet hears of ({@code NodeWatchResources}): every device of a prepared claim,
 * unhealthy while the pool taints it (the message names the taints), healthy otherwise. A prepared
 * device the pool no longer lists is unhealthy: its GPU was lost or left out.
 */
final class PreparedHealth {
  private PreparedHealth() {}

  static List<DeviceHealth> of(PoolContent pool, ClaimedDevices claimed) {
    var names = new LinkedHashSet<String>();
    claimed.all().stream().map(ClaimedDevice::deviceName).forEach(names::add);
    var health = new ArrayList<DeviceHealth>();
    for (String name : names) {
      Optional<PoolDevice> device = pool.device(name);
      if (device.isEmpty()) {
        health.add(
            new DeviceHealth(
                pool.pool(),
                name,
                DeviceHealth.Health.UNHEALTHY,
                "the device is no longer published (its GPU is lost or left out of the pool)"));
      } else if (!device.get().taints().isEmpty()) {
        health.add(
            new DeviceHealth(
                pool.pool(),
                name,
                DeviceHealth.Health.UNHEALTHY,
                device.get().taints().stream()
                    .map(PreparedHealth::taint)
                    .collect(Collectors.joining(", ", "tainted ", ""))));
      } else {
        health.add(DeviceHealth.healthy(pool.pool(), name));
      }
    }
    return health;
  }

  private static String taint(Taint t) {
    return t.key() + (t.value().isEmpty() ? "" : "=" + t.value()) + ":" + t.effect().wireName();
  }
}
