package io.migd.metrics;

import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ProcessInfo;
import io.migd.profiles.GpuModelCatalog;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The series read at scrape time: GPUs, their memory and utilisation, MIG slices with their memory
 * and processes (from NVML, one sequence of calls per GPU per scrape), and the shared devices (from
 * what the kubelet is offered). An NVML error on one GPU drops that GPU's series from this scrape
 * only; the failed call is counted in {@code migd_nvml_calls_total} and the scrape goes on.
 * Micrometer has no hook that reads a changing set of series when scraped, so this registers with
 * the Prometheus registry that Micrometer's Prometheus registry writes to: one endpoint for all.
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

  private final Nvml nvml;
  private final NodeObserver observer;
  private final Supplier<Inventory> inventory;
  private final Set<GpuIndex> failing = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean countFailing = new AtomicBoolean();

  /** One sample of a series. */
  private record Point(Metric metric, Labels labels, double value) {}

  /**
   * A collector over one NVML session; {@code inventory} is what the kubelet is offered now ({@link
   * Inventory#EMPTY} without a kubelet surface).
   */
  public NodeCollector(Nvml nvml, GpuModelCatalog catalog, Supplier<Inventory> inventory) {
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, catalog);
    this.inventory = inventory;
  }

  @Override
  public List<String> getPrometheusNames() {
    return METRICS.stream().map(Metric::baseName).toList();
  }

  @Override
  public MetricSnapshots collect() {
    var points = new ArrayList<Point>();
    for (GpuIndex gpu : gpus()) {
      try {
        points.addAll(nvml.inSequence(() -> read(gpu)));
        if (failing.remove(gpu)) {
          log.info("gpu={} metrics read again", gpu);
        }
      } catch (NvmlException e) {
        if (failing.add(gpu)) {
          log.warn(
              "gpu={} metrics left out of scrapes until NVML answers function={} result={}",
              gpu,
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

  private List<GpuIndex> gpus() {
    try {
      var gpus = observer.gpus();
      countFailing.set(false);
      return gpus;
    } catch (NvmlException e) {
      if (!countFailing.getAndSet(true)) {
        log.warn("no GPU metrics until NVML counts the GPUs result={}", e.code().cName());
      }
      return List.of();
    }
  }

  /** Every NVML series of one GPU, read back to back in one NVML sequence. */
  private List<Point> read(GpuIndex gpu) {
    ObservedGpu observed = observer.observe(gpu);
    DeviceHandle device = nvml.deviceByIndex(gpu.value());
    MemoryInfo memory = nvml.memory(device);
    String index = gpu.toString();
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
    Labels gpuLabels = Labels.of("gpu", index);
    points.add(new Point(Metric.GPU_MEMORY_USED_BYTES, gpuLabels, memory.usedBytes()));
    points.add(new Point(Metric.GPU_MEMORY_TOTAL_BYTES, gpuLabels, memory.totalBytes()));
    if (!observed.migMode().current()) {
      utilization(device)
          .ifPresent(u -> points.add(new Point(Metric.GPU_UTILIZATION_RATIO, gpuLabels, u)));
    }
    for (LiveGpuInstance gi : observed.gpuInstances()) {
      String giId = Integer.toString(gi.id());
      Labels giLabels =
          Labels.of("gpu", index, "gpu_instance", giId, "profile", gi.profile().toString());
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
      // a MIG device handle answers for its whole GPU instance; one without a compute instance
      // (half made) has no handle, and no memory to show
      gi.computeInstances().stream()
          .map(LiveComputeInstance::uuid)
          .filter(uuid -> !uuid.isEmpty())
          .findFirst()
          .ifPresent(
              uuid -> {
                MemoryInfo sliceMemory = nvml.memory(nvml.deviceByUuid(uuid));
                points.add(
                    new Point(Metric.SLICE_MEMORY_USED_BYTES, giLabels, sliceMemory.usedBytes()));
                points.add(
                    new Point(Metric.SLICE_MEMORY_TOTAL_BYTES, giLabels, sliceMemory.totalBytes()));
              });
      long processes =
          observed.processes().stream()
              .mapToInt(ProcessInfo::gpuInstanceId)
              .filter(id -> id == gi.id())
              .count();
      points.add(new Point(Metric.SLICE_PROCESSES, giLabels, processes));
    }
    return points;
  }

  /** GPU busy ratio; empty where the driver does not sample it. */
  private Optional<Double> utilization(DeviceHandle device) {
    try {
      return Optional.of(nvml.utilization(device).gpuPercent() / 100.0);
    } catch (NvmlException e) {
      if (e.code() == NvmlReturn.NOT_SUPPORTED) {
        return Optional.empty();
      }
      throw e;
    }
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
