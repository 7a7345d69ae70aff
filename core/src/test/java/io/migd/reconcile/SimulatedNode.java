package io.migd.reconcile;

import io.migd.execute.ProgressListener;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;

/**
 * A node of simulated GPUs for reconciler tests: the simulated library through the real FFM path,
 * and a reconciler wired as the daemon wires it.
 */
final class SimulatedNode implements AutoCloseable {
  static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  final SimulatedNvml sim;
  final Nvml nvml;
  final NodeObserver observer;

  private SimulatedNode(SimulatedNvml sim, Nvml nvml) {
    this.sim = sim;
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, CATALOG);
  }

  static SimulatedNode start(String models) {
    SimulatedNvml sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    sim.init(models);
    return new SimulatedNode(
        sim, FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE));
  }

  void reset(String models) {
    sim.require("faults", "");
    sim.init(models);
  }

  Reconciler reconciler(MigConfigFile configs, RebootPolicy reboot) {
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    return Reconciler.over(nvml, CATALOG, configs::config, ProgressListener.NONE, reset, reboot);
  }

  ObservedNode observe() {
    return observer.observe();
  }

  @Override
  public void close() {
    nvml.close();
  }
}
