package io.migd.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.devices.KubeletUsage;
import io.migd.devices.PodDevice;
import io.migd.kubelet.KubeletSurface;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code migd_devices} (what the kubelet sees, by resource and state) and {@code
 * migd_device_allocation_info} (one series per device a running pod holds). States are read live;
 * the allocation rows follow the last PodResources answer, refreshed after every reconcile.
 */
public final class DeviceMetrics implements OutcomeListener {
  /** A device's state in {@code migd_devices}. */
  enum State {
    FREE,
    ALLOCATED,
    UNHEALTHY;

    String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final KubeletSurface surface;
  private final KubeletUsage usage;
  private final MultiGauge allocations;
  private final Set<String> resourcesWithGauges = new HashSet<>();

  /** Metrics of what {@code surface} advertises and {@code usage} says pods hold. */
  public DeviceMetrics(MeterRegistry registry, KubeletSurface surface, KubeletUsage usage) {
    this.registry = registry;
    this.surface = surface;
    this.usage = usage;
    this.allocations =
        MultiGauge.builder(Metric.DEVICE_ALLOCATION_INFO.micrometerName())
            .description(Metric.DEVICE_ALLOCATION_INFO.help())
            .register(registry);
  }

  @Override
  public synchronized void reconciled(Desired desired, Outcome outcome) {
    Inventory inventory = surface.current();
    for (String resource : inventory.resources().keySet()) {
      if (resourcesWithGauges.add(resource)) {
        for (State state : State.values()) {
          Gauge.builder(Metric.DEVICES.micrometerName(), this, m -> m.count(resource, state))
              .description(Metric.DEVICES.help())
              .tags("resource", resource, "state", state.wireName())
              .register(registry);
        }
      }
    }
    List<MultiGauge.Row<?>> rows =
        usage.lastPods().stream()
            .<MultiGauge.Row<?>>flatMap(
                pod ->
                    inventory.find(pod.resource(), pod.deviceId()).stream()
                        .map(device -> MultiGauge.Row.of(tags(pod, device), 1)))
            .toList();
    allocations.register(rows, true);
  }

  private static Tags tags(PodDevice pod, Device device) {
    return Tags.of(
        "resource", pod.resource(),
        "device_id", pod.deviceId(),
        "gpu", device.gpu().toString(),
        "namespace", pod.namespace(),
        "pod", pod.pod(),
        "container", pod.container());
  }

  private double count(String resource, State state) {
    Set<String> held = new HashSet<>();
    usage.lastPods().stream()
        .filter(p -> p.resource().equals(resource))
        .forEach(p -> held.add(p.deviceId()));
    return surface.current().devices(resource).stream()
        .filter(d -> stateOf(d, held) == state)
        .count();
  }

  private static State stateOf(Device device, Set<String> held) {
    if (!device.healthy()) {
      return State.UNHEALTHY;
    }
    return held.contains(device.id()) ? State.ALLOCATED : State.FREE;
  }
}
