package io.migd.app;

import io.migd.devices.AllocationGrace;
import io.migd.devices.KubeletUsage;
import io.migd.devices.PodAllocations;
import io.migd.reconcile.UsageSource;
import java.time.Clock;
import java.time.Duration;

/**
 * Usage of the pods PodResources lists under a device-plugin resource, in dra mode: nothing calls
 * {@code Allocate} there, so no allocation grace is kept; {@code
 * migd.kubelet.require-pod-resources} holds every advertised device while PodResources does not
 * answer, as in device-plugin mode.
 */
final class DevicePluginPods {
  private DevicePluginPods() {}

  /** {@code processes} and the pods {@code podResources} lists. */
  static KubeletUsage usage(
      UsageSource processes, PodAllocations podResources, MigdProperties.Kubelet kubelet) {
    Clock clock = Clock.systemUTC();
    return new KubeletUsage(
        processes,
        podResources,
        new AllocationGrace(clock),
        Duration.ZERO,
        kubelet.requirePodResources(),
        clock);
  }
}
