package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric of the contract on /actuator/prometheus of a real {@code migd serve} after a reshape
 * ({@link MetricsNode}), with its labels and the values the node has; the GPU an NVML fault hits is
 * left out of the scrape while the others stay.
 */
class MetricsServeIT {
  private static final long MIB = 1024L * 1024;

  @TempDir static Path nodeDir;
  private static MetricsNode node;

  @BeforeAll
  static void startNode() throws Exception {
    node = MetricsNode.start(nodeDir);
  }

  @AfterAll
  static void stopNode() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void exportsEveryMetricWithTheContractsLabels() {
    Scrape scrape = node.settledScrape();
    for (Metric metric : Metric.values()) {
      if (metric.mode() == Metric.Mode.DRA) {
        continue; // this node serves the device plugin
      }
      String series =
          metric.type() == Metric.Type.HISTOGRAM
              ? metric.prometheusName() + "_bucket"
              : metric.prometheusName();
      var samples = scrape.named(series);
      assertThat(samples).as(series).isNotEmpty();
      Set<String> expected = new HashSet<>(metric.labels());
      if (metric.type() == Metric.Type.HISTOGRAM) {
        expected.add("le");
      }
      assertThat(samples)
          .as(series)
          .allSatisfy(s -> assertThat(s.labels().keySet()).isEqualTo(expected));
    }
  }

  @Test
  void countsSlicesPerProfileAsTheLayoutHasThem() {
    Scrape scrape = node.settledScrape();
    for (String gpu : List.of("0", "1")) {
      Map<String, Long> perProfile =
          scrape.named("migd_slice_info", Map.of("gpu", gpu)).stream()
              .collect(
                  Collectors.groupingBy(
                      s -> s.labels().get("profile"), TreeMap::new, Collectors.counting()));
      assertThat(perProfile).as("GPU " + gpu).isEqualTo(Map.of("1g.5gb", 4L, "3g.20gb", 1L));
      assertThat(scrape.named("migd_slice_memory_total_bytes", Map.of("gpu", gpu))).hasSize(5);
    }
    assertThat(
            scrape.value("migd_slice_memory_total_bytes", Map.of("gpu", "0", "profile", "3g.20gb")))
        .isGreaterThan(
            3
                * scrape.value(
                    "migd_slice_memory_total_bytes",
                    Map.of("gpu", "0", "gpu_instance", node.busyGpuInstance)));
    var gpus =
        scrape.named("migd_gpu_info").stream()
            .collect(Collectors.toMap(s -> s.labels().get("gpu"), s -> s.labels()));
    assertThat(gpus.get("0"))
        .containsEntry("mig_mode", "enabled")
        .containsEntry("mig_capable", "true");
    assertThat(gpus.get("0").get("model")).isEqualTo("NVIDIA A100-SXM4-40GB");
    assertThat(gpus.get("2"))
        .containsEntry("mig_mode", "disabled")
        .containsEntry("mig_capable", "false")
        .containsEntry("model", "Tesla T4");
    assertThat(scrape.named("migd_gpu_utilization_ratio"))
        .singleElement()
        .satisfies(s -> assertThat(s.labels()).containsEntry("gpu", "2"));
  }

  @Test
  void showsTheProcessAndThePodOnTheirSlices() {
    Scrape scrape = node.settledScrape();
    Map<String, String> busy = Map.of("gpu", "0", "gpu_instance", node.busyGpuInstance);
    assertThat(scrape.value("migd_slice_processes", busy)).isEqualTo(1);
    assertThat(scrape.value("migd_slice_memory_used_bytes", busy)).isEqualTo(1024 * MIB);
    assertThat(
            scrape.named("migd_slice_processes").stream().mapToDouble(Scrape.Sample::value).sum())
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_device_allocation_info",
                Map.of("device_id", node.heldSlice, "namespace", "ml", "pod", "trainer-0")))
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_devices", Map.of("resource", "nvidia.com/mig-1g.5gb", "state", "allocated")))
        .isEqualTo(1);
    assertThat(
            scrape.value(
                "migd_devices", Map.of("resource", "nvidia.com/mig-1g.5gb", "state", "free")))
        .isEqualTo(7);
    for (String gpu : List.of("2", "3")) {
      assertThat(
              scrape.value(
                  "migd_shared_devices",
                  Map.of(
                      "gpu",
                      gpu,
                      "gpu_instance",
                      "",
                      "compute_instance",
                      "",
                      "strategy",
                      "time-slicing")))
          .isEqualTo(4);
    }
  }

  @Test
  void timesAndCountsEveryStepOfThePlan() {
    Scrape scrape = node.settledScrape();
    // from MIG off to five slices on each A100: MIG on, then a GPU and a compute instance each
    Map<String, Double> steps =
        Map.of(
            "enableMig", 2.0,
            "createGpuInstance", 10.0,
            "createComputeInstance", 10.0,
            "disableMig", 0.0,
            "destroyGpuInstance", 0.0,
            "destroyComputeInstance", 0.0,
            "resetGpu", 0.0,
            "reboot", 0.0);
    steps.forEach(
        (action, count) ->
            assertThat(scrape.value("migd_step_duration_seconds_count", Map.of("action", action)))
                .as(action)
                .isEqualTo(count));
    assertThat(
            scrape.value(
                "migd_step_duration_seconds_bucket",
                Map.of("action", "createGpuInstance", "le", "+Inf")))
        .isEqualTo(10);
    assertThat(scrape.value("migd_instance_creations_total", Map.of("kind", "gpu"))).isEqualTo(10);
    assertThat(scrape.value("migd_instance_creations_total", Map.of("kind", "compute")))
        .isEqualTo(10);
    assertThat(scrape.value("migd_instance_destructions_total", Map.of("kind", "gpu"))).isZero();
    double reconciles = scrape.value("migd_reconcile_total", Map.of("outcome", "success"));
    assertThat(reconciles).isGreaterThanOrEqualTo(1);
    assertThat(scrape.value("migd_reconcile_total", Map.of("outcome", "failed"))).isZero();
    assertThat(scrape.value("migd_reconcile_duration_seconds_count", Map.of()))
        .isGreaterThanOrEqualTo(reconciles);
    assertThat(scrape.value("migd_layout_in_sync", Map.of())).isEqualTo(1);
  }

  @Test
  void leavesOutOnlyTheGpuNvmlFailsOnAndCountsTheFailure() {
    Scrape scrape = node.settledScrape();
    assertThat(scrape.named("migd_gpu_info"))
        .extracting(s -> s.labels().get("gpu"))
        .containsExactlyInAnyOrder("0", "1", "2");
    assertThat(scrape.named("migd_gpu_memory_total_bytes", Map.of("gpu", "3"))).isEmpty();
    assertThat(scrape.named("migd_gpu_memory_total_bytes")).hasSize(3);
    assertThat(
            scrape.value(
                "migd_nvml_calls_total",
                Map.of(
                    "function",
                    "nvmlDeviceGetUtilizationRates",
                    "result",
                    "NVML_ERROR_GPU_IS_LOST")))
        .isGreaterThanOrEqualTo(1);
    assertThat(
            scrape.value(
                "migd_nvml_calls_total",
                Map.of("function", "nvmlDeviceGetUtilizationRates", "result", "NVML_SUCCESS")))
        .isGreaterThanOrEqualTo(1);
    // the reconciler does not read utilisation: GPU 3 stays time-sliced and in sync
    assertThat(scrape.value("migd_layout_in_sync", Map.of())).isEqualTo(1);
  }
}
