package io.migd.bench;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.migd.devices.Inventory;
import io.migd.metrics.Metric;
import io.migd.metrics.NodeCollector;
import io.migd.metrics.NvmlCallCounter;
import io.migd.metrics.ReconcileMetrics;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.ResetsInProgress;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;

/**
 * What one Prometheus scrape of {@code migd serve} costs on a full node: 8 {@code H100-SXM5-80GB}
 * in {@code all-1g.10gb} (56 slices), the metrics wired as the daemon wires them (NVML calls
 * counted, reconcile metrics, the node snapshot filled by the reconcile's outcome and the live
 * values read at scrape time), {@code scrape()} of the Prometheus registry timed N times after a
 * warm-up. NVML time (inside the calls, which run on the scraping thread behind the session gate)
 * and migd's own time (the rest: building the series, the text format) are reported apart.
 *
 * <p>Arguments: scrapes (default 2000), warm-up scrapes (default 500).
 */
public final class ScrapeCost {
  private static final String MODEL = "H100-SXM5-80GB";

  private ScrapeCost() {}

  /** Runs the benchmark and prints the distribution. */
  public static void main(String[] args) throws Exception {
    int scrapes = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var sim = SimulatedNvml.extract(Files.createTempDirectory("migd-bench-"));
    sim.init(String.join(",", Collections.nCopies(8, MODEL)));
    FfmNvml nvml =
        FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), new NvmlCallCounter(registry));
    var catalog = GpuModelCatalog.builtIn();
    MigConfigFile configs = GeneratedConfigs.forModels(catalog.models());
    var reconcileMetrics = new ReconcileMetrics(registry);
    Reconciler reconciler =
        Reconciler.over(
            nvml, catalog, configs::config, reconcileMetrics, GpuReset.NONE, RebootPolicy.DISABLED);
    var desired = Desired.config(Desired.Source.FILE, "all-1g.10gb", 1);
    Outcome outcome = reconciler.reconcile(desired);
    if (!outcome.succeeded()) {
      throw new IllegalStateException("all-1g.10gb did not apply: " + outcome.reason());
    }
    reconcileMetrics.reconciled(desired, outcome);
    var snapshot =
        new NodeSnapshot(
            reconciler.observer(),
            nvml,
            new ResetsInProgress(Clock.systemUTC()),
            Duration.ofSeconds(5));
    snapshot.reconciled(desired, outcome);
    registry.getPrometheusRegistry().register(new NodeCollector(snapshot, () -> Inventory.EMPTY));

    String text = registry.scrape();
    long slices = text.lines().filter(l -> l.startsWith("migd_slice_info{")).count();
    long series = text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count();
    if (slices != 56) {
      throw new IllegalStateException("expected 56 slices in the scrape, found " + slices);
    }
    for (int i = 0; i < warmUp; i++) {
      registry.scrape();
    }
    double callsBefore = nvmlCalls(registry);
    long[] total = new long[scrapes];
    long[] inNvml = new long[scrapes];
    long[] own = new long[scrapes];
    for (int i = 0; i < scrapes; i++) {
      long nvmlBefore = nvml.timeInNvml().toNanos();
      long start = System.nanoTime();
      registry.scrape();
      total[i] = System.nanoTime() - start;
      inNvml[i] = nvml.timeInNvml().toNanos() - nvmlBefore;
      own[i] = total[i] - inNvml[i];
    }
    double callsPerScrape = (nvmlCalls(registry) - callsBefore) / scrapes;
    nvml.close();
    System.out.printf(
        "8 x %s, %d slices, %d series, %d bytes, %.0f NVML calls per scrape; %d scrapes after %d"
            + " warm-up%n",
        MODEL, slices, series, text.length(), callsPerScrape, scrapes, warmUp);
    report("scrape", total);
    report("migd's own time", own);
    report("time in NVML", inNvml);
  }

  private static double nvmlCalls(PrometheusMeterRegistry registry) {
    return registry.find(Metric.NVML_CALLS_TOTAL.micrometerName()).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private static void report(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%-16s p50 %6.2f ms   p90 %6.2f ms   max %6.2f ms%n",
        what,
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) (sorted.length * 0.9)] / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }
}
