package io.migd.metrics;

import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shares of the node's shareable twins (DESIGN section 14, Fractions), per GPU and twin: {@code
 * migd_dra_shares}, {@code migd_dra_share_memory_bytes} and {@code migd_dra_share_compute_percent},
 * the count and sums of the prepared shares. Read at scrape time from the checkpoint's memory copy;
 * a twin without prepared shares has no series.
 */
public final class DraShareCollector implements MultiCollector {
  private static final List<Metric> METRICS =
      List.of(Metric.DRA_SHARES, Metric.DRA_SHARE_MEMORY_BYTES, Metric.DRA_SHARE_COMPUTE_PERCENT);

  private final ClaimedDevices claimed;

  /** The series of the shares {@code claimed} holds. */
  public DraShareCollector(ClaimedDevices claimed) {
    this.claimed = claimed;
  }

  /** Count, memory and compute of one twin's prepared shares. */
  record Sums(long shares, long memoryBytes, long computePercent) {
    static Sums of(CheckpointClaim.Share share) {
      return new Sums(1, share.memoryBytes(), share.computePercent());
    }

    Sums plus(Sums other) {
      return new Sums(
          shares + other.shares,
          memoryBytes + other.memoryBytes,
          computePercent + other.computePercent);
    }
  }

  @Override
  public List<String> getPrometheusNames() {
    return METRICS.stream().map(Metric::baseName).toList();
  }

  @Override
  public MetricSnapshots collect() {
    Map<Labels, Sums> sums = sums(claimed.all());
    var snapshots = new ArrayList<GaugeSnapshot>();
    for (Metric metric : METRICS) {
      var points = new ArrayList<GaugeSnapshot.GaugeDataPointSnapshot>();
      sums.forEach(
          (labels, sum) ->
              points.add(
                  new GaugeSnapshot.GaugeDataPointSnapshot(
                      switch (metric) {
                        case DRA_SHARES -> sum.shares();
                        case DRA_SHARE_MEMORY_BYTES -> sum.memoryBytes();
                        default -> sum.computePercent();
                      },
                      labels,
                      null)));
      snapshots.add(
          new GaugeSnapshot(new MetricMetadata(metric.baseName(), metric.help()), points));
    }
    return new MetricSnapshots(snapshots.toArray(GaugeSnapshot[]::new));
  }

  /** The sums per GPU and twin of the completed prepares' shares. */
  static Map<Labels, Sums> sums(List<ClaimedDevice> devices) {
    var sums = new TreeMap<Labels, Sums>();
    for (ClaimedDevice device : devices) {
      var share = device.entry().share();
      if (!device.completed() || share.isEmpty()) {
        continue;
      }
      sums.merge(
          Labels.of("gpu", device.gpu().toString(), "device", device.deviceName()),
          Sums.of(share.get()),
          Sums::plus);
    }
    return sums;
  }
}
