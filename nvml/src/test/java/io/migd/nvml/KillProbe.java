package io.migd.nvml;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A separate process for the KILL fault: on every GPU, enables MIG and creates two GPU instances.
 */
final class KillProbe {
  private KillProbe() {}

  /**
   * Runs the probe in a child JVM on simulated GPUs kept in {@code dir/kill.state}, with {@code
   * NVML_SIM_FAULTS} set to {@code faults}, and waits for it to end.
   *
   * @return its exit status (137 when a KILL fault killed it)
   */
  static int run(Path dir, String gpus, String faults) throws IOException, InterruptedException {
    var java = ProcessHandle.current().info().command().orElseThrow();
    var process =
        new ProcessBuilder(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                KillProbe.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("probe.log").toFile());
    process.environment().put("NVML_SIM_STATE", dir.resolve("kill.state").toString());
    process.environment().put("NVML_SIM_GPUS", gpus);
    process.environment().put("NVML_SIM_FAULTS", faults);
    Process p = process.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("the kill probe did not end: " + log(dir));
    }
    return p.exitValue();
  }

  /** What the last probe in {@code dir} printed. */
  static String log(Path dir) throws IOException {
    return Files.readString(dir.resolve("probe.log"));
  }

  public static void main(String[] args) {
    SimulatedNvml sim = SimulatedNvml.extract(Path.of(args[0]));
    try (Nvml nvml =
        FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE)) {
      for (int i = 0; i < nvml.deviceCount(); i++) {
        DeviceHandle gpu = nvml.deviceByIndex(i);
        nvml.setMigMode(gpu, true);
        int profileId = nvml.gpuInstanceProfiles(gpu).getFirst().id();
        for (InstancePlacement at :
            nvml.gpuInstancePossiblePlacements(gpu, profileId).subList(0, 2)) {
          nvml.createGpuInstance(gpu, profileId, at);
        }
      }
    }
    System.exit(0);
  }
}
