package io.migd.bench.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The MPS facts migd's shares rely on, on a real GPU, only when asked with {@code
 * -Dmigd.gpu-test.mps=<GPU UUID>[,<MIG device UUID>]} (as root, no other MPS daemon or CUDA process
 * on that GPU): runs {@code bench/gpu/mps-facts.sh}, which checks that a client's {@code
 * CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=<N>M} holds it, that {@code -M} runs, that {@code
 * EXCLUSIVE_PROCESS} refuses a client that leaves MPS, and, given a MIG device, that an ordinal
 * limit holds under a daemon that sees that MIG device. Without the property it says in one line
 * that it was skipped.
 */
class MpsFactsGpuIT {
  private static final String PROPERTY = "migd.gpu-test.mps";

  @Test
  void theMpsFactsHoldOnThisGpu() throws Exception {
    String asked = System.getProperty(PROPERTY, "");
    assumeTrue(
        !asked.isBlank(), "no GPU to check MPS on: -D" + PROPERTY + "=<GPU UUID>[,<MIG UUID>]");
    Path script = Path.of("gpu", "mps-facts.sh").toAbsolutePath();
    var command = new ArrayList<>(List.of("sh", script.toString()));
    command.addAll(List.of(asked.split(",")));
    Path output = Files.createTempFile("mps-facts", ".log");
    Process run =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    assertThat(run.waitFor(5, TimeUnit.MINUTES)).as("mps-facts.sh finished").isTrue();
    String printed = Files.readString(output, StandardCharsets.UTF_8);
    System.out.println(printed);
    assertThat(printed).doesNotContain("FAIL");
    assertThat(run.exitValue()).as(printed).isZero();
  }
}
