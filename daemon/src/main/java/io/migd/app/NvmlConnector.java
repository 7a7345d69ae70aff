package io.migd.app;

import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlLoadException;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.reconcile.GpuReset;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens NVML as the properties say: the driver's library, or with {@code --simulate} the simulated
 * library bundled in this jar. migd never falls back to simulation on its own.
 */
public final class NvmlConnector {
  private static final Logger log = LoggerFactory.getLogger(NvmlConnector.class);

  private NvmlConnector() {}

  /**
   * Loads and initialises NVML. Throws {@link NvmlLoadException} with the remedy when the library
   * is missing, native access is off, or the driver does not initialise.
   */
  public static NvmlSession open(MigdProperties properties, NvmlCallObserver observer) {
    NvmlLibrary.requireNativeAccess();
    if (!properties.simulated()) {
      Nvml nvml = init(NvmlLibrary.load(properties.nvml().library()), observer);
      return NvmlSession.of(nvml, new CommandReset(properties.resetCommand(), nvml));
    }
    SimulatedNvml sim = extract(properties);
    var result = sim.control("init", "--gpus", properties.simulate(), "--keep");
    if (!result.succeeded()) {
      throw new NvmlLoadException(
          "cannot simulate " + properties.simulate() + ": " + result.output());
    }
    log.info(
        "simulating GPUs models={} library={} state={}",
        properties.simulate(),
        sim.libraryPath(),
        System.getenv().getOrDefault("NVML_SIM_STATE", "in memory"));
    Nvml nvml = init(NvmlLibrary.load(sim.libraryPath().toString()), observer);
    return NvmlSession.of(
        nvml,
        gpu -> {
          // as nvidia-smi -r would: no NVML call of migd's runs on any GPU while the GPU resets
          var done = nvml.whileReleased(() -> sim.resetGpu(gpu.index().value()));
          return GpuReset.Result.of(done.succeeded(), done.output());
        });
  }

  private static Nvml init(NvmlLibrary library, NvmlCallObserver observer) {
    try {
      return FfmNvml.open(library, observer);
    } catch (NvmlException e) {
      throw new NvmlLoadException(
          "NVML did not initialise from "
              + library.location()
              + ": "
              + e.getMessage()
              + ". Check that the NVIDIA driver is loaded (nvidia-smi) and that migd runs as root.",
          e);
    }
  }

  private static SimulatedNvml extract(MigdProperties properties) {
    String configured = properties.nvml().extractDir();
    try {
      if (!configured.isBlank()) {
        return SimulatedNvml.extract(Files.createDirectories(Path.of(configured)));
      }
      Path temp = Files.createTempDirectory("migd-nvml-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(temp)));
      return SimulatedNvml.extract(temp);
    } catch (IOException | UncheckedIOException e) {
      throw new NvmlLoadException(
          "cannot extract the simulated NVML into "
              + (configured.isBlank() ? "a temporary directory" : configured)
              + " ("
              + (e.getCause() == null ? e : e.getCause())
              + "); set migd.nvml.extract-dir (env MIGD_NVML_EXTRACTDIR) to a writable directory",
          e);
    }
  }

  /** The extracted library is mapped until exit; Linux lets it be unlinked while mapped. */
  private static void deleteTree(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort at exit: a leftover temp directory is harmless
    }
  }
}
