package io.migd.nvml;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;

/**
 * A simulated node for the contract suite: one extracted copy of the simulated library, NVML opened
 * on it through the real FFM binding, and the simulator's control function to set the scene (GPUs,
 * processes, faults) in the same process.
 */
final class SimNode implements AutoCloseable {
  private static final Path NODES = Path.of("target", "sim-nodes");

  final SimulatedNvml sim;
  final Nvml nvml;

  private SimNode(SimulatedNvml sim, Nvml nvml) {
    this.sim = sim;
    this.nvml = nvml;
  }

  static SimNode start(String models) {
    SimulatedNvml sim = SimulatedNvml.extract(NODES.toAbsolutePath());
    sim.init(models);
    Nvml nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    return new SimNode(sim, nvml);
  }

  /** Replaces every GPU with fresh ones of these models (MIG disabled); old handles go stale. */
  void reset(String models) {
    sim.require("faults", "");
    sim.init(models);
  }

  /** Replaces the GPUs with fresh ones of these models and enables MIG on GPU 0, at once. */
  DeviceHandle migEnabledGpu(String models) {
    reset(models);
    DeviceHandle gpu = gpu(0);
    NvmlReturn activation = nvml.setMigMode(gpu, true);
    if (activation != NvmlReturn.SUCCESS) {
      throw new IllegalStateException("MIG mode on " + models + " is pending: " + activation);
    }
    return gpu;
  }

  DeviceHandle gpu(int index) {
    return nvml.deviceByIndex(index);
  }

  /**
   * Creates a compute instance of a profile at its first placement in the GPU instance: for the
   * profile that spans the GPU instance, its only one.
   */
  static ComputeInstanceHandle createWholeComputeInstance(
      Nvml nvml, GpuInstanceHandle gi, int profileId) {
    var at = nvml.computeInstancePossiblePlacements(gi, profileId).getFirst();
    return nvml.createComputeInstance(gi, profileId, at);
  }

  void faults(String spec) {
    sim.require("faults", spec);
  }

  @Override
  public void close() {
    sim.control("faults", "");
    nvml.close();
  }
}
