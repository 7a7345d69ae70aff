package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuReplacementsTest {
  @Test
  void aNewUuidIsAReplacementAndARecordedOneAtAnotherIndexHasMoved() {
    var recorded = Map.of(0, "GPU-a", 1, "GPU-b", 2, "GPU-c", 3, "GPU-d");
    var observed = Map.of(0, "GPU-x", 1, "GPU-b", 2, "GPU-d");

    assertThat(GpuReplacements.between(recorded, observed))
        .containsExactly(
            Map.entry(0, "GPU 0 was replaced: GPU-a -> GPU-x"),
            Map.entry(2, "GPU 3 is now index 2"));
  }

  @Test
  void gpusNvmlCouldNotReadOrThatWereAddedAreNoReplacement() {
    var recorded = Map.of(0, "GPU-a", 1, "GPU-b");

    assertThat(GpuReplacements.between(recorded, Map.of(0, "GPU-a", 2, "GPU-n"))).isEmpty();
    assertThat(GpuReplacements.present(recorded, Map.of(0, "GPU-x"), 2))
        .isEqualTo(Map.of(0, "GPU-x", 1, "GPU-b"));
    assertThat(GpuReplacements.present(recorded, Map.of(0, "GPU-x"), 1))
        .isEqualTo(Map.of(0, "GPU-x"));
  }
}
