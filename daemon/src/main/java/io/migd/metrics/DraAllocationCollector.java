package io.migd.metrics;

import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
import io.migd.ownership.ReservedPod;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * {@code migd_device_allocation_info} in dra mode: one series per device of a prepared claim, pod
 * it is reserved for and container of that pod that references the claim ({@code resource} = the
 * DeviceClass of the claim's request, {@code device_id} = the MIG device's UUID, or the GPU's for a
 * whole GPU). Read at scrape time from the checkpoint's memory copy: the pods were read when the
 * claim was prepared or at the last claim check, never on a scrape.
 */
public final class DraAllocationCollector implements MultiCollector {
  private final ClaimedDevices claimed;

  /** The series of what {@code claimed} holds. */
  public DraAllocationCollector(ClaimedDevices claimed) {
    this.claimed = claimed;
  }

  @Override
  public List<String> getPrometheusNames() {
    return List.of(Metric.DEVICE_ALLOCATION_INFO.baseName());
  }

  @Override
  public MetricSnapshots collect() {
    return new MetricSnapshots(
        new InfoSnapshot(
            new MetricMetadata(
                Metric.DEVICE_ALLOCATION_INFO.baseName(), Metric.DEVICE_ALLOCATION_INFO.help()),
            points(claimed.all()).stream().map(InfoSnapshot.InfoDataPointSnapshot::new).toList()));
  }

  /** The label sets of the devices of completed prepares, each once. */
  static List<Labels> points(List<ClaimedDevice> devices) {
    var points = new LinkedHashSet<Labels>();
    for (ClaimedDevice device : devices) {
      if (!device.completed()) {
        continue;
      }
      for (ReservedPod pod : device.pods()) {
        for (String container : pod.containers()) {
          points.add(
              Labels.of(
                  "resource", device.deviceClass(),
                  "device_id", device.device().deviceUuid(),
                  "gpu", device.gpu().toString(),
                  "namespace", pod.namespace(),
                  "pod", pod.name(),
                  "container", container));
        }
      }
    }
    return new ArrayList<>(points);
  }
}
