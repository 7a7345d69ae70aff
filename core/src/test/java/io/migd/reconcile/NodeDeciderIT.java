package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ModelSource;
import io.migd.layout.ObservedNode;
import io.migd.plan.PlannerBound;
import io.migd.profiles.MigConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How an intent resolves per GPU when it cannot give a target: a config the file lacks, a file that
 * could not be read, a layout naming a GPU the node lacks; every reason says what to do.
 */
class NodeDeciderIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final GpuIndex GPU7 = new GpuIndex(7);

  private static SimulatedNode node;
  private static ObservedNode observed;

  @BeforeAll
  static void start() {
    node = SimulatedNode.start("A100-SXM4-40GB,A100-SXM4-40GB");
    observed = node.observe();
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static NodeDecider decider(ConfigLookup configs) {
    return new NodeDecider(
        configs,
        new ModelSource(node.nvml, SimulatedNode.CATALOG),
        DeviceOwnership.DEVICE_PLUGIN,
        PlannerBound.DEFAULT);
  }

  private static String reason(Resolution resolution) {
    assertThat(resolution).isInstanceOf(Resolution.Unreachable.class);
    return ((Resolution.Unreachable) resolution).reason();
  }

  @Test
  void aConfigTheFileLacksIsUnreachableOnEveryGpuAndSaysWhatToSet() {
    var resolved =
        decider(name -> Optional.empty())
            .resolve(Desired.config(Desired.Source.LABEL, "all-9g.99gb", 2), observed);

    assertThat(resolved).containsOnlyKeys(GPU0, GPU1);
    assertThat(reason(resolved.get(GPU1)))
        .isEqualTo(
            "the config \"all-9g.99gb\" is not in the config file; set nvidia.com/mig.config (or"
                + " migd.config) to a config the file has");
  }

  @Test
  void aFileThatCouldNotBeReadChangesNothingOnAnyGpu() {
    ConfigLookup broken =
        new ConfigLookup() {
          @Override
          public Optional<MigConfig> config(String name) {
            return Optional.empty();
          }

          @Override
          public Optional<String> problem() {
            return Optional.of("config.yaml: not valid YAML (line 3)");
          }
        };

    var resolved =
        decider(broken).resolve(Desired.config(Desired.Source.LABEL, "all-disabled", 2), observed);

    assertThat(resolved).containsOnlyKeys(GPU0, GPU1);
    assertThat(reason(resolved.get(GPU0)))
        .isEqualTo(
            "config.yaml: not valid YAML (line 3); nothing on the GPUs changes until the file is"
                + " fixed");
  }

  @Test
  void aLayoutNamingAGpuTheNodeLacksIsUnreachableThereAndTheOthersAreUnselected() {
    var layout =
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(List.of(GpuTarget.mig(GPU7, List.of()))),
            5,
            "",
            "",
            Map.of());

    var resolved = decider(name -> Optional.empty()).resolve(layout, observed);

    assertThat(resolved.keySet()).containsExactly(GPU7, GPU0, GPU1);
    assertThat(reason(resolved.get(GPU7)))
        .isEqualTo("GPU index 7 is out of range: this node has GPUs 0, 1");
    assertThat(resolved.get(GPU0)).isInstanceOf(Resolution.Unselected.class);
  }
}
