package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UUIDs an intent is recorded against come from the outcome, never from NVML calls of its own.
 */
class GpuUuidRecorderIT {
  @TempDir Path stateDir;

  @Test
  void aGpuWhoseUuidNvmlCannotReadIsRecordedOnceObservedAndTheOthersMeanwhile() throws Exception {
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    try (var node = SimulatedNode.start("A100-SXM4-40GB,A100-SXM4-40GB")) {
      Map<Integer, String> uuids =
          Map.of(0, node.observe().gpus().get(0).uuid(), 1, node.observe().gpus().get(1).uuid());
      var intents =
          new IntentService(
              new IntentStore(Files.createDirectories(stateDir.resolve("state"))),
              Optional.empty());
      intents.change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-disabled"));
      var recorder = new GpuUuidRecorder(intents);
      Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);

      node.sim.require("faults", "nvmlDeviceGetUUID@1=NVML_ERROR_GPU_IS_LOST");
      Desired first = intents.current();
      Outcome lost = reconciler.reconcile(first);
      recorder.reconciled(first, lost);

      assertThat(lost.results().get(new GpuIndex(1))).isInstanceOf(GpuResult.Failed.class);
      assertThat(intents.current().gpuUuids()).isEqualTo(Map.of(0, uuids.get(0)));

      node.sim.require("faults", "");
      Desired second = intents.current();
      recorder.reconciled(second, reconciler.reconcile(second));

      assertThat(intents.current().gpuUuids()).isEqualTo(uuids);
      assertThat(new IntentStore(stateDir.resolve("state")).load().orElseThrow().gpuUuids())
          .isEqualTo(uuids);
    }
  }
}
