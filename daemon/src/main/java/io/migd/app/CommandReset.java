package io.migd.app;

import io.migd.layout.ObservedGpu;
import io.migd.nvml.Nvml;
import io.migd.reconcile.GpuReset;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Resets a GPU with {@code migd.reset-command}, {@code {pciBusId}} replaced by the GPU's, after
 * releasing migd's own NVML session (a reset fails while any NVML client holds the GPU).
 */
final class CommandReset implements GpuReset {
  private static final long TIMEOUT_SECONDS = 120;
  private final String template;
  private final Nvml nvml;

  CommandReset(String template, Nvml nvml) {
    this.template = template;
    this.nvml = nvml;
  }

  @Override
  public Result reset(ObservedGpu gpu) {
    return nvml.whileReleased(() -> run(gpu));
  }

  private Result run(ObservedGpu gpu) {
    String[] command =
        Arrays.stream(template.trim().split("\\s+"))
            .map(part -> part.replace("{pciBusId}", gpu.pci().busId()))
            .toArray(String[]::new);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(false, String.join(" ", command) + " did not finish in 120 s");
      }
      String output = new String(process.getInputStream().readAllBytes()).strip();
      return process.exitValue() == 0
          ? new Result(true, output)
          : new Result(
              false, String.join(" ", command) + " exited " + process.exitValue() + ": " + output);
    } catch (IOException e) {
      return new Result(
          false, "could not run " + String.join(" ", command) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, "interrupted");
    }
  }
}
