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
public final class SimulatedNode implements AutoCloseable {
  public static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  public final SimulatedNvml sim;
  public final Nvml nvml;
  public final NodeObserver observer;

  private SimulatedNode(SimulatedNvml sim, Nvml nvml) {
    this.sim = sim;
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, CATALOG);
  }

  /** A node of these models (comma-separated catalogue keys), MIG disabled. */
  public static SimulatedNode start(String models) {
    SimulatedNvml sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    sim.init(models);
    return new SimulatedNode(
        sim, FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE));
  }

  /** Back to the given GPUs, MIG disabled, no faults. */
  public void reset(String models) {
    sim.require("faults", "");
    sim.init(models);
  }

  Reconciler reconciler(MigConfigFile configs, RebootPolicy reboot) {
    return reconciler(configs, reboot, ProgressListener.NONE);
  }

  /** A reconciler over this node that tells {@code listener} of its progress. */
  Reconciler reconciler(MigConfigFile configs, RebootPolicy reboot, ProgressListener listener) {
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    return reconciler(configs, reboot, listener, reset);
  }

  /** A reconciler over this node that resets a GPU with {@code reset}. */
  Reconciler reconciler(
      MigConfigFile configs, RebootPolicy reboot, ProgressListener listener, GpuReset reset) {
    return Reconciler.over(nvml, CATALOG, configs::config, listener, reset, reboot);
  }

  /** The node as NVML shows it now. */
  public ObservedNode observe() {
    return observer.observe();
  }

  @Override
  public void close() {
    nvml.close();
  }
}
