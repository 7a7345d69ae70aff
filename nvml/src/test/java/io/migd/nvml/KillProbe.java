package io.migd.nvml;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;

/**
 * A separate process for the KILL fault: on every GPU, enables MIG and creates two GPU instances.
 */
final class KillProbe {
  private KillProbe() {}

  public static void main(String[] args) {
    SimulatedNvml sim = SimulatedNvml.extract(Path.of(args[0]));
    try (Nvml nvml =
        FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE)) {
      for (int i = 0; i < nvml.deviceCount(); i++) {
        DeviceHandle gpu = nvml.deviceByIndex(i);
        nvml.setMigMode(gpu, true);
        int profileId = nvml.gpuInstanceProfiles(gpu).getFirst().id();
        nvml.createGpuInstance(gpu, profileId);
        nvml.createGpuInstance(gpu, profileId);
      }
    }
    System.exit(0);
  }
}
