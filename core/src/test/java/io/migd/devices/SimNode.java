package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuTarget;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.SimulatedNode;
import io.migd.reconcile.UsageSource;
import io.migd.sim.SimulatedNvml;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node of simulated GPUs through the real FFM path, shaped by the reconciler as the daemon shapes
 * it, so the devices tests see carry the UUIDs and ids NVML reports.
 */
final class SimNode implements AutoCloseable {
  static final GpuModelCatalog CATALOG = SimulatedNode.CATALOG;

  final SimulatedNode base;
  final SimulatedNvml sim;
  final Nvml nvml;
  final NodeObserver observer;
  private long generation;

  private SimNode(SimulatedNode base) {
    this.base = base;
    this.sim = base.sim;
    this.nvml = base.nvml;
    this.observer = base.observer;
  }

  static SimNode start(String models) {
    return new SimNode(SimulatedNode.start(models));
  }

  /** Back to the given GPUs, MIG disabled, no faults. */
  void reset(String models) {
    base.reset(models);
  }

  /**
   * A reconciler over this node that reads usage from {@code usage} and time from {@code clock}.
   */
  Reconciler reconciler(UsageSource usage, Clock clock) {
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    return new Reconciler(
        observer,
        new ModelSource(nvml, CATALOG),
        name -> Optional.empty(),
        usage,
        new Executor(nvml, ProgressListener.NONE),
        ProgressListener.NONE,
        reset,
        RebootPolicy.DISABLED,
        clock);
  }

  /** Reconciles to an explicit layout with {@code reconciler}. */
  Outcome reconcile(Reconciler reconciler, GpuTarget... targets) {
    generation++;
    return reconciler.reconcile(
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(List.of(targets)),
            generation,
            "",
            "",
            Map.of()));
  }

  /** Shapes the node into {@code targets}, with only NVML processes counting as usage. */
  ObservedNode shape(GpuTarget... targets) {
    Outcome outcome =
        reconcile(reconciler(new ProcessUsage(nvml::processName), Clock.systemUTC()), targets);
    assertThat(outcome.state()).as("%s", outcome).isEqualTo(GpuResult.State.SUCCESS);
    return observe();
  }

  ObservedNode observe() {
    return base.observe();
  }

  @Override
  public void close() {
    base.close();
  }
}
