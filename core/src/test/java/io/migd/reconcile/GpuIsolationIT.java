package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LayoutMatch;
import io.migd.layout.ObservedNode;
import io.migd.layout.TargetResolver;
import io.migd.plan.Decision;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.profiles.ProfileName;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An NVML error on one GPU fails that GPU only; the others reach their layout in the same run. */
class GpuIsolationIT {
  private static final String THREE_A100 = "A100-SXM4-40GB,A100-SXM4-40GB,A100-SXM4-40GB";
  private static MigConfigFile shipped;
  private static SimulatedNode node;

  @BeforeAll
  static void start() throws Exception {
    shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    node = SimulatedNode.start(THREE_A100);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void anNvmlErrorObservingOneGpuFailsThatGpuAndTheOthersAreReshaped() {
    node.reset(THREE_A100);
    node.sim.require("faults", "nvmlDeviceGetMigMode@1#1=NVML_ERROR_GPU_IS_LOST");
    Outcome outcome =
        node.reconciler(shipped, RebootPolicy.DISABLED)
            .reconcile(Desired.config(Desired.Source.FILE, "all-7g.40gb", 1));

    GpuResult lost = outcome.results().get(new GpuIndex(1));
    assertThat(lost).isInstanceOf(GpuResult.Failed.class);
    assertThat(lost.reason())
        .contains("nvmlDeviceGetMigMode")
        .contains("NVML_ERROR_GPU_IS_LOST")
        .contains("GPU 1");
    assertThat(outcome.state()).isEqualTo(GpuResult.State.FAILED);
    node.sim.require("faults", "");
    assertReached(outcome, "all-7g.40gb", 0, 2);
  }

  @Test
  void anExceptionThatIsNotNvmlsOnOneGpuFailsThatGpuAndTheOthersAreReshaped() {
    node.reset(THREE_A100);
    // a client NVML does not list holds GPU 1, so its MIG mode change waits for a reset, and
    // that reset hits a bug in migd
    node.sim.require("attach", "--gpu", "1", "--holder", "--pid", "4242");
    GpuReset reset =
        gpu -> {
          if (gpu.index().value() == 1) {
            throw new IllegalStateException("a bug while resetting");
          }
          var result = node.sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    Outcome outcome =
        node.reconciler(shipped, RebootPolicy.DISABLED, ProgressListener.NONE, reset)
            .reconcile(Desired.config(Desired.Source.FILE, "all-7g.40gb", 1));
    node.sim.require("detach", "--pid", "4242");

    var broken = outcome.gpus().get(new GpuIndex(1));
    assertThat(broken.result()).isInstanceOf(GpuResult.Failed.class);
    assertThat(broken.result().reason())
        .contains("GPU 1")
        .contains("IllegalStateException")
        .contains("a bug while resetting");
    assertThat(broken.decision()).isInstanceOf(Decision.Change.class);
    assertThat(outcome.error()).isEmpty();
    assertThat(outcome.observed(new GpuIndex(1))).isPresent();
    assertReached(outcome, "all-7g.40gb", 0, 2);
  }

  @Test
  void aGpuWhoseStepFailsDoesNotStopTheOtherGpusSteps() {
    node.reset(THREE_A100);
    node.sim.require(
        "faults", "nvmlDeviceCreateGpuInstanceWithPlacement@1#1=NVML_ERROR_NO_PERMISSION");
    Outcome outcome =
        node.reconciler(shipped, RebootPolicy.DISABLED)
            .reconcile(Desired.config(Desired.Source.FILE, "all-7g.40gb", 1));

    GpuResult refused = outcome.results().get(new GpuIndex(1));
    assertThat(refused).isInstanceOf(GpuResult.Failed.class);
    assertThat(refused.reason())
        .contains("CreateGpuInstance")
        .contains("nvmlDeviceCreateGpuInstanceWithPlacement")
        .contains("NVML_ERROR_NO_PERMISSION");
    node.sim.require("faults", "");
    assertReached(outcome, "all-7g.40gb", 0, 2);
  }

  @Test
  void everyGpuHasAResultAndGpusTheIntentDoesNotSelectAreUnmanaged() {
    node.reset(THREE_A100);
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    var onlyGpu1 =
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(
                List.of(
                    GpuTarget.mig(
                        new GpuIndex(1),
                        List.of(GpuInstanceSpec.whole(ProfileName.parse("7g.40gb")))))),
            1,
            "",
            "",
            Map.of());
    Outcome outcome = reconciler.reconcile(onlyGpu1);
    assertThat(outcome.results().keySet())
        .containsExactly(new GpuIndex(0), new GpuIndex(1), new GpuIndex(2));
    assertThat(outcome.results().get(new GpuIndex(0))).isInstanceOf(GpuResult.Unmanaged.class);
    assertThat(outcome.results().get(new GpuIndex(2)).state()).isEqualTo(GpuResult.State.UNMANAGED);
    assertThat(outcome.results().get(new GpuIndex(1))).isInstanceOf(GpuResult.Applied.class);
    assertThat(outcome.gpus().get(new GpuIndex(0)).resolution())
        .isEqualTo(new Resolution.Unselected());
    assertThat(outcome.gpus().get(new GpuIndex(0)).decision()).isEqualTo(new Decision.Unmanaged());
    assertThat(outcome.state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(node.observe().gpus().get(0).migMode().current()).isFalse();

    Outcome nothing = reconciler.reconcile(Desired.none());
    assertThat(nothing.results().values())
        .hasSize(3)
        .allSatisfy(r -> assertThat(r).isInstanceOf(GpuResult.Unmanaged.class));
    assertThat(nothing.state()).isEqualTo(GpuResult.State.SUCCESS);
  }

  private static void assertReached(Outcome outcome, String configName, int... gpus) {
    MigConfig config = shipped.config(configName).orElseThrow();
    ObservedNode now = node.observe();
    var targets = TargetResolver.resolve(config, now);
    for (int gpu : gpus) {
      assertThat(outcome.results().get(new GpuIndex(gpu)).state())
          .as("GPU %d: %s", gpu, outcome.results().get(new GpuIndex(gpu)))
          .isEqualTo(GpuResult.State.SUCCESS);
      assertThat(LayoutMatch.matches(targets.get(new GpuIndex(gpu)), now.gpus().get(gpu)))
          .as("GPU %d has the layout of %s", gpu, configName)
          .isTrue();
    }
  }
}
