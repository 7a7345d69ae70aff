package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.ModelSource;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The profiles NVML reports make the same model as the built-in catalogue, MIG on or off. */
class ModelSourceIT {
  private static SimulatedNode node;

  @BeforeAll
  static void start() {
    node = SimulatedNode.start("A30");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static Stream<GpuModel> migModels() {
    return SimulatedNode.CATALOG.migModels().stream();
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void nvmlReportsTheCatalogueProfiles(GpuModel model) {
    for (boolean migEnabled : new boolean[] {false, true}) {
      node.reset(model.key());
      if (migEnabled) {
        node.nvml.setMigMode(node.nvml.deviceByIndex(0), true);
      }
      var gpu = node.observe().gpus().getFirst();
      GpuModel reported =
          new ModelSource(node.nvml, SimulatedNode.CATALOG).modelOf(gpu).orElseThrow();
      assertThat(reported.memorySlices()).isEqualTo(model.memorySlices());
      assertThat(reported.giProfiles())
          .extracting(GiProfile::name, GiProfile::id, GiProfile::instances, GiProfile::placements)
          .containsExactlyInAnyOrderElementsOf(
              model.giProfiles().stream()
                  .map(
                      p ->
                          org.assertj.core.groups.Tuple.tuple(
                              p.name(), p.id(), p.instances(), p.placements()))
                  .toList());
    }
  }
}
