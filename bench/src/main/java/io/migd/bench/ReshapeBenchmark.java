package io.migd.bench;

import io.migd.execute.ProgressListener;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole-node reshape end to end: observe, plan, execute and verify through the real FFM path
 * against the simulated NVML, alternating between two configs that share nothing (every GPU
 * instance of every GPU is destroyed and re-created each time). Each state-changing NVML call is
 * delayed by {@code latencyMs} ({@code NVML_SIM_LATENCY_MS}); {@code parallelism} is {@code
 * migd.reconcile.parallelism} (1: one GPU after another, 0: every GPU at once). The secondary
 * results {@code nvmlMs} and {@code migdMs} split each reshape into time spent in NVML calls
 * (marshalling included, summed over the GPUs' threads) and migd's own time (the rest of the wall
 * clock); the split is only kept with parallelism 1, where the two add up to the wall clock.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class ReshapeBenchmark {
  /** GPU models of the node. */
  @Param(
      "H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB")
  public String gpus;

  /** Delay of each state-changing NVML call, in milliseconds. */
  @Param({"0", "2"})
  public int latencyMs;

  /** GPUs changed at once: 1 one after another, 0 every GPU at once. */
  @Param({"1", "0"})
  public int parallelism;

  private FfmNvml nvml;
  private Reconciler reconciler;
  private long generation;

  /** Per-reshape split of the time, summed over an iteration (divide by the op count). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Split {
    /** Milliseconds in NVML calls. */
    public double nvmlMs;

    /** Milliseconds of migd's own work. */
    public double migdMs;

    /** Reshapes measured. */
    public long reshapes;

    /** Clears the sums at each iteration. */
    @Setup(Level.Iteration)
    public void clear() {
      nvmlMs = 0;
      migdMs = 0;
      reshapes = 0;
    }
  }

  /** Loads a fresh simulated node and wires the reconciler as the daemon does. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    var sim = SimulatedNvml.extract(Files.createTempDirectory("migd-bench-"));
    sim.init(gpus);
    sim.require("latency", Integer.toString(latencyMs));
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    var catalog = GpuModelCatalog.builtIn();
    MigConfigFile configs = GeneratedConfigs.forModels(catalog.models());
    reconciler =
        Reconciler.over(
                nvml,
                catalog,
                configs::config,
                ProgressListener.NONE,
                GpuReset.NONE,
                RebootPolicy.DISABLED)
            .withParallelism(parallelism);
    reconciler.reconcile(Desired.config(Desired.Source.FILE, "all-balanced", ++generation));
  }

  /** Shuts NVML down. */
  @TearDown(Level.Trial)
  public void stop() {
    nvml.close();
  }

  /** One reshape of every GPU. */
  @Benchmark
  public Outcome reshape(Split split) {
    String config = generation % 2 == 0 ? "all-balanced" : "all-1g.10gb";
    long nvmlBefore = nvml.timeInNvml().toNanos();
    long start = System.nanoTime();
    Outcome outcome =
        reconciler.reconcile(Desired.config(Desired.Source.FILE, config, ++generation));
    long total = System.nanoTime() - start;
    long inNvml = nvml.timeInNvml().toNanos() - nvmlBefore;
    if (!outcome.succeeded()) {
      throw new IllegalStateException("reshape to " + config + " failed: " + outcome.reason());
    }
    if (parallelism == 1) {
      split.nvmlMs += inNvml / 1e6;
      split.migdMs += (total - inNvml) / 1e6;
    }
    split.reshapes++;
    return outcome;
  }
}
