package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU answers while NVML reads its UUID; one NVML has lost throws, so its taint stays (the
 * simulated NVML, through the real FFM binding).
 */
class GpuAnswersTest {
  @TempDir Path dir;
  private SimulatedNvml sim;
  private Nvml nvml;

  @BeforeEach
  void node() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    sim.require("state", dir.resolve("nvml-state").toString());
    sim.init("H100-SXM5-80GB,H100-SXM5-80GB");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
  }

  @AfterEach
  void close() {
    nvml.close();
  }

  @Test
  void aGpuNvmlReadsAnswersAndALostOneThrows() {
    sim.require("faults", "nvmlDeviceGetUUID@1=NVML_ERROR_GPU_IS_LOST");
    var answers = new GpuAnswers(nvml);

    assertThat(answers.answers(new GpuIndex(0))).isTrue();
    assertThatThrownBy(() -> answers.answers(new GpuIndex(1)))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.GPU_IS_LOST));
  }
}
