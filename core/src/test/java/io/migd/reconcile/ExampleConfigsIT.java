package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.LayoutMatch;
import io.migd.layout.TargetResolver;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every config of the shipped examples applies on the node it is written for, from MIG disabled and
 * from the default file's {@code all-balanced}, and {@code assert} then holds.
 */
class ExampleConfigsIT {
  /** The node each example is written for. */
  private static final Map<String, String> NODES =
      Map.of(
          "mixed-a100-h100", "A100-SXM4-40GB,H100-SXM5-80GB",
          "per-gpu-h100", "H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB",
          "a100-shared-4g", "A100-SXM4-40GB,A100-SXM4-40GB",
          "time-sliced-t4-l4", "T4,L4",
          "mixed-a100-l4", "A100-SXM4-80GB,L4",
          "shared-a100-h100-t4", "A100-SXM4-40GB,H100-SXM5-80GB,T4");

  private static MigConfigFile examples;
  private static MigConfigFile defaults;
  private static SimulatedNode node;

  @BeforeAll
  static void start() throws Exception {
    examples = MigConfigParser.parse(Path.of("..", "profiles", "configs", "examples.yaml"));
    defaults = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    node = SimulatedNode.start("T4");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void everyExampleNamesTheNodeItIsFor() {
    assertThat(NODES.keySet()).containsExactlyInAnyOrderElementsOf(examples.configNames());
  }

  static Iterable<String> exampleNames() {
    return NODES.keySet();
  }

  @ParameterizedTest
  @MethodSource("exampleNames")
  void appliesFromMigDisabledAndFromAnotherLayout(String name) {
    node.reset(NODES.get(name));
    var fromExamples = node.reconciler(examples, RebootPolicy.DISABLED);
    var fromDefaults = node.reconciler(defaults, RebootPolicy.DISABLED);
    assertApplied(fromExamples, name, 1);
    assertThat(
            fromDefaults.reconcile(Desired.config(Desired.Source.FILE, "all-balanced", 2)).state())
        .isNotEqualTo(GpuResult.State.FAILED);
    assertApplied(fromExamples, name, 3);
  }

  private static void assertApplied(Reconciler reconciler, String name, long generation) {
    Outcome outcome = reconciler.reconcile(Desired.config(Desired.Source.FILE, name, generation));
    assertThat(outcome.succeeded()).as("%s: %s", name, outcome.reason()).isTrue();
    assertThat(outcome.results()).as("%s selects some GPU", name).isNotEmpty();
    var observed = node.observe();
    TargetResolver.resolve(examples.config(name).orElseThrow(), observed)
        .forEach(
            (gpu, target) ->
                assertThat(LayoutMatch.matches(target, observed.gpus().get(gpu.value())))
                    .as("GPU %s after %s", gpu, name)
                    .isTrue());
  }
}
