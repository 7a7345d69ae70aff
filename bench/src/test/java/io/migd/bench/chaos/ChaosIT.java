package io.migd.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The short chaos run of CI: a real {@code migd serve} on eight simulated GPUs of mixed models, 90
 * seeded operations (reshapes, label changes, pods, processes, XIDs, kubelet restarts, API-server
 * outages, SIGKILLs with NVML faults and hostile requests), and every invariant holds. A number of
 * operations, not a time: a loaded machine makes the run longer, never shorter, so it always
 * reaches its settles. The converge bound is wide here (a shared CI machine); the runner's own
 * default is twice the resync period. The two modes run side by side: each drives its own migd,
 * mock API server and simulated GPUs.
 */
@Execution(ExecutionMode.CONCURRENT)
class ChaosIT {
  @TempDir Path dir;

  @Test
  void holdsEveryInvariantThroughAShortSeededRun() throws Exception {
    var settings =
        ChaosSettings.parse(
            List.of(
                "--mode=device-plugin",
                "--seed=20261126",
                "--operations=90",
                "--rate=2",
                "--settle-every=24",
                "--converge-bound=120",
                "--sample-every=30",
                "--trace=" + dir.resolve("trace.tsv"),
                "--migd-jar=" + System.getProperty("migd.jar", "../daemon/target/migd.jar")));

    ChaosReport report = Chaos.run(settings);

    assertThat(report.violations()).isEmpty();
    assertThat(report.convergeTimes()).as("settles that converged").hasSizeGreaterThanOrEqualTo(3);
    assertThat(report.killsSurvived()).as("kills migd survived").isPositive();
  }

  /**
   * DRA mode: 24 operations: claims allocated by the test allocator and prepared and unprepared
   * over the real sockets, processes on the slices, XIDs, registration sockets removed, API
   * outages, SIGKILLs with faults aimed at a prepare's and an unprepare's NVML calls, static spells
   * and hostile requests; every DRA invariant holds, and some prepares succeed.
   */
  @Test
  void holdsEveryDraInvariantThroughAShortSeededRun() throws Exception {
    var settings =
        ChaosSettings.parse(
            List.of(
                "--mode=dra",
                "--seed=20261126",
                "--operations=24",
                "--rate=2",
                "--settle-every=24",
                "--converge-bound=120",
                "--sample-every=30",
                "--trace=" + dir.resolve("dra-trace.tsv"),
                "--work=" + dir,
                "--migd-jar=" + System.getProperty("migd.jar", "../daemon/target/migd.jar")));

    ChaosReport report = Chaos.run(settings);

    assertThat(report.violations()).isEmpty();
    assertThat(report.convergeTimes()).as("settles that converged").hasSizeGreaterThanOrEqualTo(2);
    assertThat(report.killsSurvived()).as("kills migd survived").isPositive();
    // a loaded machine starts each migd slowly, so a minute holds few prepares; some must succeed
    assertThat(report.outcomes("prepare").getOrDefault("prepared", 0))
        .as("claims prepared")
        .isPositive();
  }
}
