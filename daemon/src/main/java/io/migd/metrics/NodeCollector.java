package io.migd.metrics;

import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpu;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.NvmlException;
import io.migd.nvml.ProcessInfo;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.ResetInProgressException;
import io.migd.reconcile.ResetsInProgress;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The series read at scrape time: GPUs and MIG slices as the node snapshot has them (what the last
 * reconcile or XID observed), with the values that change between reconciles read live from NVML
 * (memory in use, utilisation, processes per GPU instance: one short sequence of calls per GPU),
 * and the shared devices (from what the kubelet is offered). A GPU being reset is left out without
 * an NVML call; when NVML stays released longer than {@code migd.nvml.reset-wait} (another GPU's
 * reset), the GPUs keep their snapshot series without the live ones, and the scrape waits no more.
 * An NVML error on one GPU drops that GPU's series from this scrape only; the failed call is
 * counted in {@code migd_nvml_calls_total} and the scrape goes on. Micrometer has no hook that
 * reads a changing set of series when scraped, so this registers with the Prometheus registry that
 * Micrometer's Prometheus registry writes to: one endpoint for all.
 */
public final class NodeCollector implements MultiCollector {
  private static final Logger log = LoggerFactory.getLogger(NodeCollector.class);
  private static final List<Metric> METRICS =
      List.of(
          Metric.GPU_INFO,
          Metric.GPU_MEMORY_USED_BYTES,
          Metric.GPU_MEMORY_TOTAL_BYTES,
          Metric.GPU_UTILIZATION_RATIO,
          Metric.SLICE_INFO,
          Metric.SLICE_MEMORY_USED_BYTES,
          Metric.SLICE_MEMORY_TOTAL_BYTES,
          Metric.SLICE_PROCESSES,
          Metric.SHARED_DEVICES);
  private static final String TIME_SLICING = "time-slicing";
  private static final String MPS = "mps";
  private static final long MIB = 1024L * 1024;

  private final NodeSnapshot snapshot;
  private final Supplier<Inventory> inventory;
  private final Set<GpuIndex> failing = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean nodeFailing = new AtomicBoolean();

  /** One sample of a series. */
  private record Point(Metric metric, Labels labels, double value) {}

  /**
   * A collector over the node snapshot; {@code inventory} is what the kubelet is offered now
   * ({@link Inventory#EMPTY} without a kubelet surface).
   */
  public NodeCollector(NodeSnapshot snapshot, Supplier<Inventory> inventory) {
    this.snapshot = snapshot;
    this.inventory = inventory;
  }

  @Override
  public List<String> getPrometheusNames() {
    return METRICS.stream().map(Metric::baseName).toList();
  }

  @Override
  public MetricSnapshots collect() {
    var points = new ArrayList<Point>();
    var resetting = snapshot.resetsInProgress().stream().map(ResetsInProgress.Reset::gpu).toList();
    boolean released = false;
    for (ObservedGpu gpu : node().gpus()) {
      if (resetting.contains(gpu.index())) {
        continue;
      }
      if (released) {
        points.addAll(known(gpu));
        continue;
      }
      try {
        points.addAll(read(snapshot.live(gpu)));
        if (failing.remove(gpu.index())) {
          log.info("gpu={} metrics read again", gpu.index());
        }
      } catch (ResetInProgressException e) {
        released = true;
        if (!e.resetting(gpu.index())) {
          points.addAll(known(gpu));
        }
      } catch (NvmlException e) {
        if (failing.add(gpu.index())) {
          log.warn(
              "gpu={} metrics left out of scrapes until NVML answers function={} result={}",
              gpu.index(),
              e.function(),
              e.code().cName());
        }
      }
    }
    points.addAll(shared(inventory.get()));
    var byMetric = new EnumMap<Metric, List<Point>>(Metric.class);
    points.forEach(p -> byMetric.computeIfAbsent(p.metric(), m -> new ArrayList<>()).add(p));
    var snapshots = new ArrayList<MetricSnapshot>();
    for (Metric metric : METRICS) {
      snapshots.add(snapshot(metric, byMetric.getOrDefault(metric, List.of())));
    }
    return new MetricSnapshots(snapshots);
  }

  /** The GPUs as the snapshot has them; none while NVML cannot count them or a reset holds it. */
  private ObservedNode node() {
    try {
      ObservedNode node = snapshot.latest();
      if (nodeFailing.getAndSet(false)) {
        log.info("GPU metrics read again");
      }
      return node;
    } catch (NvmlException | ResetInProgressException e) {
      if (!nodeFailing.getAndSet(true)) {
        log.warn("no GPU metrics until NVML observes the GPUs: {}", e.getMessage());
      }
      return ObservedNode.none();
    }
  }

  /** Every series of one GPU: the snapshot's, and the live values read for this scrape. */
  private static List<Point> read(LiveGpu live) {
    ObservedGpu observed = live.gpu();
    String index = observed.index().toString();
    Labels gpuLabels = Labels.of("gpu", index);
    var points = new ArrayList<>(known(observed, live.memory().totalBytes()));
    points.add(new Point(Metric.GPU_MEMORY_USED_BYTES, gpuLabels, live.memory().usedBytes()));
    live.utilization()
        .ifPresent(u -> points.add(new Point(Metric.GPU_UTILIZATION_RATIO, gpuLabels, u)));
    for (LiveGpuInstance gi : observed.gpuInstances()) {
      Labels giLabels = gpuInstanceLabels(index, gi);
      MemoryInfo sliceMemory = live.gpuInstanceMemory().get(gi.id());
      if (sliceMemory != null) {
        points.add(new Point(Metric.SLICE_MEMORY_USED_BYTES, giLabels, sliceMemory.usedBytes()));
        points.add(new Point(Metric.SLICE_MEMORY_TOTAL_BYTES, giLabels, sliceMemory.totalBytes()));
      }
      long processes =
          observed.processes().stream()
              .mapToInt(ProcessInfo::gpuInstanceId)
              .filter(id -> id == gi.id())
              .count();
      points.add(new Point(Metric.SLICE_PROCESSES, giLabels, processes));
    }
    return points;
  }

  /** The series of one GPU that need no NVML call: what the snapshot observed. */
  private static List<Point> known(ObservedGpu observed) {
    return known(observed, observed.memoryMiB() * MIB);
  }

  private static List<Point> known(ObservedGpu observed, long totalBytes) {
    String index = observed.index().toString();
    var points = new ArrayList<Point>();
    points.add(
        new Point(
            Metric.GPU_INFO,
            Labels.of(
                "gpu", index,
                "uuid", observed.uuid(),
                "model", observed.name(),
                "mig_capable", Boolean.toString(observed.migCapable()),
                "mig_mode", observed.migMode().current() ? "enabled" : "disabled"),
            1));
    points.add(new Point(Metric.GPU_MEMORY_TOTAL_BYTES, Labels.of("gpu", index), totalBytes));
    for (LiveGpuInstance gi : observed.gpuInstances()) {
      String giId = Integer.toString(gi.id());
      for (LiveComputeInstance ci : gi.computeInstances()) {
        points.add(
            new Point(
                Metric.SLICE_INFO,
                Labels.of(
                    "gpu", index,
                    "gpu_instance", giId,
                    "compute_instance", Integer.toString(ci.id()),
                    "profile", ci.profile().toString(),
                    "uuid", ci.uuid(),
                    "placement_start", Integer.toString(gi.placement().start()),
                    "placement_size", Integer.toString(gi.placement().size())),
                1));
      }
    }
    return points;
  }

  private static Labels gpuInstanceLabels(String gpu, LiveGpuInstance gi) {
    return Labels.of(
        "gpu", gpu, "gpu_instance", Integer.toString(gi.id()), "profile", gi.profile().toString());
  }

  /** Replicas advertised per shared GPU or slice; instance labels empty for a whole GPU. */
  private static List<Point> shared(Inventory inventory) {
    record Parent(String gpu, String gpuInstance, String computeInstance, String strategy) {}
    Map<Parent, Long> replicas =
        inventory.resources().values().stream()
            .flatMap(List::stream)
            .filter(Device::isReplica)
            .collect(
                Collectors.groupingBy(
                    d ->
                        d.isMigSlice()
                            ? new Parent(
                                d.gpu().toString(),
                                Integer.toString(d.gpuInstanceId()),
                                Integer.toString(d.computeInstanceId()),
                                strategy(d))
                            : new Parent(d.gpu().toString(), "", "", strategy(d)),
                    LinkedHashMap::new,
                    Collectors.counting()));
    return replicas.entrySet().stream()
        .map(
            e ->
                new Point(
                    Metric.SHARED_DEVICES,
                    Labels.of(
                        "gpu", e.getKey().gpu(),
                        "gpu_instance", e.getKey().gpuInstance(),
                        "compute_instance", e.getKey().computeInstance(),
                        "strategy", e.getKey().strategy()),
                    e.getValue()))
        .toList();
  }

  private static String strategy(Device device) {
    return device.isMps() ? MPS : TIME_SLICING;
  }

  private static MetricSnapshot snapshot(Metric metric, List<Point> points) {
    var metadata = new MetricMetadata(metric.baseName(), metric.help());
    return switch (metric.type()) {
      case INFO ->
          new InfoSnapshot(
              metadata,
              points.stream()
                  .map(p -> new InfoSnapshot.InfoDataPointSnapshot(p.labels()))
                  .toList());
      case GAUGE ->
          new GaugeSnapshot(
              metadata,
              points.stream()
                  .map(p -> new GaugeSnapshot.GaugeDataPointSnapshot(p.value(), p.labels(), null))
                  .toList());
      case COUNTER, HISTOGRAM ->
          throw new IllegalArgumentException(metric + " is not read at scrape time");
    };
  }
}
