package io.migd.metrics;

import java.util.List;

/**
 * Every metric migd exports, by the name Prometheus sees: the one place those names are written.
 * Micrometer meters take {@link #micrometerName()}, from which Micrometer's Prometheus naming adds
 * the {@code _total} of a counter and the {@code _seconds} of a timer back; the series read from
 * NVML at scrape time use {@link #prometheusName()} directly.
 */
public enum Metric {
  GPU_INFO(
      "migd_gpu_info", "1 per GPU", Type.INFO, "gpu", "uuid", "model", "mig_capable", "mig_mode"),
  GPU_MEMORY_USED_BYTES(
      "migd_gpu_memory_used_bytes", "memory in use on the GPU", Type.GAUGE, "gpu"),
  GPU_MEMORY_TOTAL_BYTES("migd_gpu_memory_total_bytes", "memory of the GPU", Type.GAUGE, "gpu"),
  GPU_UTILIZATION_RATIO(
      "migd_gpu_utilization_ratio",
      "GPU busy ratio (0..1) of a GPU without MIG",
      Type.GAUGE,
      "gpu"),
  SLICE_INFO(
      "migd_slice_info",
      "1 per MIG slice (compute instance)",
      Type.INFO,
      "gpu",
      "gpu_instance",
      "compute_instance",
      "profile",
      "uuid",
      "placement_start",
      "placement_size"),
  SLICE_MEMORY_USED_BYTES(
      "migd_slice_memory_used_bytes",
      "memory in use in the GPU instance",
      Type.GAUGE,
      "gpu",
      "gpu_instance",
      "profile"),
  SLICE_MEMORY_TOTAL_BYTES(
      "migd_slice_memory_total_bytes",
      "memory of the GPU instance",
      Type.GAUGE,
      "gpu",
      "gpu_instance",
      "profile"),
  SLICE_PROCESSES(
      "migd_slice_processes",
      "compute processes running in the GPU instance",
      Type.GAUGE,
      "gpu",
      "gpu_instance",
      "profile"),
  DEVICES(
      "migd_devices",
      "devices the kubelet sees, by resource and state",
      Type.GAUGE,
      "resource",
      "state"),
  DEVICE_ALLOCATION_INFO(
      "migd_device_allocation_info",
      "1 per device a running pod holds",
      Type.INFO,
      "resource",
      "device_id",
      "gpu",
      "namespace",
      "pod",
      "container"),
  LAYOUT_IN_SYNC(
      "migd_layout_in_sync",
      "1 when the last reconcile left every selected GPU as the intent says",
      Type.GAUGE),
  RECONCILE_TOTAL(
      "migd_reconcile_total",
      "reconciles by the node state they ended in",
      Type.COUNTER,
      "outcome"),
  RECONCILE_DURATION_SECONDS(
      "migd_reconcile_duration_seconds",
      "how long a reconcile takes, from reading the intent to its outcome",
      Type.HISTOGRAM),
  STEP_DURATION_SECONDS(
      "migd_step_duration_seconds",
      "how long each kind of step takes on a GPU, when it succeeds",
      Type.HISTOGRAM,
      "action"),
  SHARED_DEVICES(
      "migd_shared_devices",
      "replicas advertised per shared GPU or slice",
      Type.GAUGE,
      "gpu",
      "gpu_instance",
      "compute_instance",
      "strategy"),
  // not migd_instances_created_total: Prometheus' Java client rejects a family named *_created,
  // the suffix OpenMetrics reserves for a counter's creation time
  INSTANCE_CREATIONS_TOTAL(
      "migd_instance_creations_total",
      "GPU and compute instances migd created",
      Type.COUNTER,
      "kind"),
  INSTANCE_DESTRUCTIONS_TOTAL(
      "migd_instance_destructions_total",
      "GPU and compute instances migd destroyed",
      Type.COUNTER,
      "kind"),
  NVML_CALLS_TOTAL(
      "migd_nvml_calls_total",
      "NVML calls by function and return code",
      Type.COUNTER,
      "function",
      "result"),
  LISTENER_FAILURES_TOTAL(
      "migd_listener_failures_total",
      "surfaces told of a reconcile's progress or outcome that threw, by listener",
      Type.COUNTER,
      "listener"),
  DRA_PREPARE_DURATION_SECONDS(
      "migd_dra_prepare_duration_seconds",
      "how long a claim's prepare takes, by what it took: a static device, an instance created or"
          + " an idle one reused",
      Type.HISTOGRAM,
      Mode.DRA,
      "kind"),
  DRA_PREPARED_DEVICES(
      "migd_dra_prepared_devices", "devices of prepared claims", Type.GAUGE, Mode.DRA),
  DRA_REQUESTS_TOTAL(
      "migd_dra_requests_total",
      "claims the kubelet asked to prepare or unprepare, by how each ended",
      Type.COUNTER,
      Mode.DRA,
      "operation",
      "result"),
  DRA_FREE_PLACEMENTS(
      "migd_dra_free_placements",
      "placements of a profile a claim could still get on a dynamic GPU",
      Type.GAUGE,
      Mode.DRA,
      "gpu",
      "profile"),
  DRA_SHARES(
      "migd_dra_shares",
      "prepared shares of a shareable twin",
      Type.GAUGE,
      Mode.DRA,
      "gpu",
      "device"),
  DRA_SHARE_MEMORY_BYTES(
      "migd_dra_share_memory_bytes",
      "memory of the prepared shares of a shareable twin, summed",
      Type.GAUGE,
      Mode.DRA,
      "gpu",
      "device"),
  DRA_SHARE_COMPUTE_PERCENT(
      "migd_dra_share_compute_percent",
      "compute of the prepared shares of a shareable twin, summed, percent of the device",
      Type.GAUGE,
      Mode.DRA,
      "gpu",
      "device"),
  DRA_SHARE_OVERLAPS_TOTAL(
      "migd_dra_share_overlaps_total",
      "prepares that found an allocation over a shared device, or a share over a held one",
      Type.COUNTER,
      Mode.DRA);

  /** How Prometheus types the metric. */
  public enum Type {
    GAUGE,
    INFO,
    COUNTER,
    HISTOGRAM
  }

  /** Which kubelet mode exports the metric. */
  public enum Mode {
    /** Both modes. */
    ANY,
    /** Only {@code migd.kubelet.mode=dra}. */
    DRA
  }

  private final String prometheusName;
  private final String help;
  private final Type type;
  private final Mode mode;
  private final List<String> labels;

  Metric(String prometheusName, String help, Type type, String... labels) {
    this(prometheusName, help, type, Mode.ANY, labels);
  }

  Metric(String prometheusName, String help, Type type, Mode mode, String... labels) {
    this.prometheusName = prometheusName;
    this.help = help;
    this.type = type;
    this.mode = mode;
    this.labels = List.of(labels);
  }

  /** Which kubelet mode exports it. */
  public Mode mode() {
    return mode;
  }

  /** The name in Prometheus' exposition ({@code migd_reconcile_total}). */
  public String prometheusName() {
    return prometheusName;
  }

  /** What a sample means: the metric's HELP text. */
  public String help() {
    return help;
  }

  /** The Prometheus type. */
  public Type type() {
    return type;
  }

  /** The label names of every series, in the order the contract lists them. */
  public List<String> labels() {
    return labels;
  }

  /**
   * The meter name for Micrometer ({@code migd.reconcile}): without the suffix its Prometheus
   * naming appends for a counter or a timer.
   */
  public String micrometerName() {
    // Micrometer exports a gauge whose name ends in .info as an info metric, suffix kept
    return (type == Type.INFO ? prometheusName : baseName()).replace('_', '.');
  }

  /**
   * The family name of Prometheus' data model, which the exposition extends with the type's suffix
   * ({@code migd_slice} for {@code migd_slice_info}).
   */
  String baseName() {
    String suffix =
        switch (type) {
          case GAUGE -> "";
          case INFO -> "_info";
          case COUNTER -> "_total";
          case HISTOGRAM -> "_seconds";
        };
    return prometheusName.substring(0, prometheusName.length() - suffix.length());
  }
}
