package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LayoutMatch;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.TargetResolver;
import io.migd.layout.Usage;
import io.migd.plan.Decision;
import io.migd.plan.Step;
import io.migd.profiles.GpuModel;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigItem;
import io.migd.profiles.MigConfigParser;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The reconciler on simulated GPUs, through the real FFM path. */
class ReconcilerIT {
  private static final Path DEFAULT_CONFIG = Path.of("..", "profiles", "configs", "default.yaml");
  private static MigConfigFile shipped;
  private static SimulatedNode node;

  @BeforeAll
  static void start() throws Exception {
    shipped = MigConfigParser.parse(DEFAULT_CONFIG);
    node = SimulatedNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static Desired config(String name, long generation) {
    return Desired.config(Desired.Source.FILE, name, generation);
  }

  private static Desired layout(long generation, GpuTarget... targets) {
    return new Desired(
        Desired.Source.REST,
        new Desired.Intent.Layout(List.of(targets)),
        generation,
        "",
        "",
        Map.of());
  }

  private static ObservedGpu gpu(int index) {
    return node.observe().gpus().get(index);
  }

  /** Every static config of the shipped file that selects GPUs of this model. */
  private static List<MigConfig> configsFor(GpuModel model) {
    return shipped.configs().stream()
        .filter(c -> c.items().stream().anyMatch(i -> i.mayApplyTo(model)))
        .filter(c -> c.items().stream().noneMatch(MigConfigItem::dynamic))
        .toList();
  }

  static Stream<GpuModel> migModels() {
    return SimulatedNode.CATALOG.migModels().stream();
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void everyShippedConfigAppliesFromMigDisabledAndFromEveryOtherConfig(GpuModel model) {
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    List<MigConfig> configs = configsFor(model);
    assertThat(configs).hasSizeGreaterThan(3);
    for (MigConfig from : configs) {
      node.reset(model.key());
      assertApplies(reconciler, from);
      for (MigConfig to : configs) {
        assertApplies(reconciler, to);
        assertApplies(reconciler, from);
      }
    }
  }

  private static void assertApplies(Reconciler reconciler, MigConfig config) {
    Outcome outcome = reconciler.reconcile(config(config.name(), 1));
    assertThat(outcome.succeeded()).as("%s: %s", config.name(), outcome.reason()).isTrue();
    var node0 = node.observe();
    assertThat(outcome.observed())
        .as("the outcome carries the node as the reconcile left it")
        .isEqualTo(node0);
    TargetResolver.resolve(config, node0)
        .forEach(
            (gpu, target) ->
                assertThat(LayoutMatch.matches(target, node0.gpus().get(gpu.value())))
                    .as("GPU %s after %s", gpu, config.name())
                    .isTrue());
  }

  @Test
  void aBusySliceSurvivesAChangeOfTheRestAndBlocksAChangeThatNeedsIt() {
    node.reset("A100-SXM4-40GB,A100-SXM4-40GB");
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    assertThat(reconciler.reconcile(config("all-balanced", 1)).succeeded()).isTrue();
    LiveGpuInstance threeG =
        gpu(0).gpuInstances().stream()
            .filter(gi -> gi.profile().toString().equals("3g.20gb"))
            .findFirst()
            .orElseThrow();
    node.sim.require(
        "attach",
        "--gpu",
        "0",
        "--gi",
        Integer.toString(threeG.id()),
        "--pid",
        "4242",
        "--mem",
        "512",
        "--name",
        "trainer");

    var keepsIt =
        GpuTarget.mig(
            new GpuIndex(0),
            List.of(
                GpuInstanceSpec.whole(ProfileName.parse("3g.20gb")),
                GpuInstanceSpec.whole(ProfileName.parse("2g.10gb")),
                GpuInstanceSpec.whole(ProfileName.parse("2g.10gb"))));
    Outcome changed = reconciler.reconcile(layout(2, keepsIt));
    assertThat(changed.succeeded()).as(changed.reason()).isTrue();
    assertThat(gpu(0).gpuInstances()).contains(threeG);
    // ids and MIG UUIDs come back on re-create, so the process is what shows the slice was kept
    assertThat(gpu(0).processes())
        .anyMatch(p -> p.pid() == 4242 && p.gpuInstanceId() == threeG.id());

    Outcome blocked = reconciler.reconcile(config("all-1g.5gb", 3));
    GpuResult onBusyGpu = blocked.results().get(new GpuIndex(0));
    assertThat(onBusyGpu).isInstanceOf(GpuResult.Blocked.class);
    assertThat(onBusyGpu.reason()).contains("4242");
    assertThat(((GpuResult.Blocked) onBusyGpu).holders()).anyMatch(h -> h.contains("trainer"));
    assertThat(blocked.results().get(new GpuIndex(1)).state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(blocked.state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(gpu(0).gpuInstances()).contains(threeG);
  }

  static List<String> stateChangingSteps() {
    return List.of(
        "nvmlDeviceSetMigMode",
        "nvmlDeviceCreateGpuInstanceWithPlacement",
        "nvmlGpuInstanceCreateComputeInstanceWithPlacement");
  }

  @ParameterizedTest
  @MethodSource("stateChangingSteps")
  void anNvmlFaultAtAnyStepFailsThatGpuNamingTheStepAndLeavesNothingHalfMade(String function) {
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    int calls = function.equals("nvmlDeviceSetMigMode") ? 1 : 4;
    for (int n = 1; n <= calls; n++) {
      node.reset("A100-SXM4-40GB");
      node.sim.require("faults", function + "#" + n + "=NVML_ERROR_NO_PERMISSION");
      Outcome failed = reconciler.reconcile(config("all-balanced", 1));
      GpuResult result = failed.results().get(new GpuIndex(0));
      assertThat(result).isInstanceOf(GpuResult.Failed.class);
      assertThat(result.reason())
          .contains(function)
          .contains("NVML_ERROR_NO_PERMISSION")
          .contains("step");
      assertThat(gpu(0).gpuInstances())
          .as("no GPU instance without its compute instance after a fault at call %d", n)
          .allSatisfy(gi -> assertThat(gi.computeInstances()).isNotEmpty());

      node.sim.require("faults", "");
      Outcome retried = reconciler.reconcile(config("all-balanced", 1));
      assertThat(retried.succeeded()).as(retried.reason()).isTrue();
    }
  }

  @Test
  void aTransientNvmlErrorIsRetriedAndAPersistentOneFailsTheGpu() {
    node.reset("A100-SXM4-40GB");
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    node.sim.require("faults", "nvmlDeviceCreateGpuInstanceWithPlacement#2=NVML_ERROR_TIMEOUT");
    Outcome retried = reconciler.reconcile(config("all-balanced", 1));
    assertThat(retried.succeeded()).as(retried.reason()).isTrue();

    node.reset("A100-SXM4-40GB");
    node.sim.require("faults", "nvmlDeviceCreateGpuInstanceWithPlacement=NVML_ERROR_TIMEOUT");
    Outcome failed = reconciler.reconcile(config("all-balanced", 2));
    assertThat(failed.state()).isEqualTo(GpuResult.State.FAILED);
    assertThat(failed.reason()).contains("NVML_ERROR_TIMEOUT");
    assertThat(gpu(0).gpuInstances()).isEmpty();
  }

  @Test
  void aFaultedDestroyFailsAndTheRetryFinishesTheChange() {
    node.reset("H100-SXM5-80GB");
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    assertThat(reconciler.reconcile(config("all-1g.10gb", 1)).succeeded()).isTrue();
    node.sim.require("faults", "nvmlGpuInstanceDestroy#3=NVML_ERROR_IN_USE");
    Outcome failed = reconciler.reconcile(config("all-7g.80gb", 2));
    assertThat(failed.state()).isEqualTo(GpuResult.State.FAILED);
    assertThat(failed.reason()).contains("DestroyGpuInstance").contains("NVML_ERROR_IN_USE");
    node.sim.require("faults", "");
    assertThat(reconciler.reconcile(config("all-7g.80gb", 2)).succeeded()).isTrue();
  }

  @Test
  void aHolderOnAmpereKeepsTheGpuPendingUntilItLetsGo() {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "99", "--name", "persistenced");
    node.sim.require("attach", "--gpu", "1", "--holder", "--pid", "98", "--name", "dcgm");
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);

    Outcome held = reconciler.reconcile(config("all-enabled", 1));
    GpuResult ampere = held.results().get(new GpuIndex(0));
    assertThat(ampere).isInstanceOf(GpuResult.AwaitingModeChange.class);
    assertThat(ampere.reason()).contains("pending").contains("does not list");
    assertThat(gpu(0).migMode().pending()).isTrue();
    assertThat(held.results().get(new GpuIndex(1)).state()).isEqualTo(GpuResult.State.SUCCESS);

    node.sim.require("detach", "--pid", "99");
    Outcome released = reconciler.reconcile(config("all-enabled", 1));
    assertThat(released.succeeded()).as(released.reason()).isTrue();
    assertThat(gpu(0).migMode().current()).isTrue();
  }

  @Test
  void aPodThatGetsTheGpuWhileItsModeChangeIsPendingStopsTheReset() {
    node.reset("A100-SXM4-40GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "99", "--name", "persistenced");
    var podHasTheGpu = new AtomicBoolean();
    var resets = new ArrayList<GpuIndex>();
    UsageSource usage =
        observed ->
            podHasTheGpu.get()
                ? new Usage(
                    Map.of(
                        new Usage.SliceKey(
                            new GpuIndex(0), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES),
                        List.of("pod ml/trainer-0 (container main)")))
                : Usage.NONE;
    var podArrivesWithTheStep =
        new ProgressListener() {
          @Override
          public void stepStarted(Step step) {
            podHasTheGpu.set(true);
          }
        };
    Reconciler reconciler =
        Reconciler.over(
            node.nvml,
            SimulatedNode.CATALOG,
            shipped::config,
            usage,
            podArrivesWithTheStep,
            gpu -> {
              resets.add(gpu.index());
              node.sim.require("detach", "--pid", "99");
              return GpuReset.Result.of(node.sim.resetGpu(0).succeeded(), "reset");
            },
            RebootPolicy.DISABLED);

    Outcome outcome = reconciler.reconcile(config("all-enabled", 1));

    GpuResult result = outcome.results().get(new GpuIndex(0));
    assertThat(result).isInstanceOf(GpuResult.AwaitingModeChange.class);
    assertThat(result.reason()).contains("pod ml/trainer-0");
    assertThat(resets).isEmpty();
    assertThat(gpu(0).migMode().current()).isFalse();
  }

  @Test
  void aComputeProcessKeepsTheModeChangePendingAndIsNamed() {
    node.reset("H100-SXM5-80GB");
    node.sim.require("attach", "--gpu", "0", "--pid", "555", "--mem", "100", "--name", "jupyter");
    Reconciler reconciler = node.reconciler(shipped, RebootPolicy.DISABLED);
    Outcome outcome = reconciler.reconcile(config("all-enabled", 1));
    assertThat(outcome.state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(outcome.reason()).contains("555");
    assertThat(gpu(0).migMode().current()).isFalse();
  }

  @Test
  void passthroughFailsWithTheReasonOrRebootsOncePerGeneration() {
    node.reset("A100-SXM4-80GB");
    node.sim.require("passthrough", "--gpu", "0", "on");
    Outcome failed =
        node.reconciler(shipped, RebootPolicy.DISABLED).reconcile(config("all-enabled", 1));
    assertThat(failed.state()).isEqualTo(GpuResult.State.FAILED);
    assertThat(failed.reason()).contains("reboot");

    var requested = new ArrayList<Long>();
    RebootPolicy reboots =
        new RebootPolicy() {
          @Override
          public boolean enabled() {
            return true;
          }

          @Override
          public RebootPolicy.Request requestReboot(long generation) {
            if (requested.contains(generation)) {
              return new RebootPolicy.Request.AlreadyRequested();
            }
            requested.add(generation);
            return new RebootPolicy.Request.Started("");
          }
        };
    Reconciler rebooting = node.reconciler(shipped, reboots);
    assertThat(rebooting.reconcile(config("all-enabled", 7)).state())
        .isEqualTo(GpuResult.State.REBOOTING);
    assertThat(rebooting.reconcile(config("all-enabled", 7)).state())
        .isEqualTo(GpuResult.State.REBOOTING);
    assertThat(requested).containsExactly(7L);
  }

  @Test
  void anItemSharesAGpuWithoutMigByMpsAndTheSlicesOfTheProfilesItNames() {
    node.reset("T4,A100-SXM4-40GB");
    var file =
        MigConfigParser.parse(
            """
            version: v1
            mig-configs:
              shared:
                - devices: all
                  mig-enabled: true
                  mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
                  sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
                  mps: {replicas: 4}
            """);

    var targets = TargetResolver.resolve(file.configs().getFirst(), node.observe());

    assertThat(targets.get(new GpuIndex(0)))
        .isEqualTo(GpuTarget.whole(new GpuIndex(0), new Sharing.Mps(4)));
    var a100 = targets.get(new GpuIndex(1));
    assertThat(a100.migEnabled()).isTrue();
    assertThat(a100.sliceSharing())
        .containsOnly(
            java.util.Map.entry(ProfileName.parse("3g.20gb"), new Sharing.Mps(2)),
            java.util.Map.entry(ProfileName.parse("1g.5gb"), new Sharing.TimeSliced(3)));

    Outcome outcome = node.reconciler(file, RebootPolicy.DISABLED).reconcile(config("shared", 1));

    // the surfaces share from the outcome: it carries what the reconcile resolved and decided
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    assertThat(outcome.targets()).isEqualTo(targets);
    var t4 = outcome.gpus().get(new GpuIndex(0));
    assertThat(t4.resolution()).isEqualTo(new Resolution.Target(targets.get(new GpuIndex(0))));
    assertThat(t4.decision()).isEqualTo(new Decision.InSync());
    var a100Outcome = outcome.gpus().get(new GpuIndex(1));
    assertThat(a100Outcome.decision())
        .isInstanceOfSatisfying(
            Decision.Change.class,
            change ->
                assertThat(a100Outcome.result())
                    .isInstanceOfSatisfying(
                        GpuResult.Applied.class,
                        applied -> assertThat(applied.plan()).isEqualTo(change.plan())));
  }

  @Test
  void aGpuWithoutMigGetsTimeSlicedReplicasInsteadAndIsLeftAsItIs() {
    node.reset("T4,A100-SXM4-40GB");
    var file =
        MigConfigParser.parse(
            """
            version: v1
            mig-configs:
              all-1g:
                - devices: all
                  mig-enabled: true
                  mig-devices: {"1g.5gb": 7}
            """);
    var targets = TargetResolver.resolve(file.configs().getFirst(), node.observe());
    assertThat(targets.get(new GpuIndex(0))).isEqualTo(GpuTarget.whole(new GpuIndex(0), 7));
    Outcome outcome = node.reconciler(file, RebootPolicy.DISABLED).reconcile(config("all-1g", 1));
    assertThat(outcome.results().get(new GpuIndex(0))).isInstanceOf(GpuResult.InSync.class);
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
  }

  @Test
  void anExplicitLayoutAskingMigOfAGpuWithoutItIsInfeasible() {
    node.reset("L4");
    Outcome outcome =
        node.reconciler(shipped, RebootPolicy.DISABLED)
            .reconcile(
                layout(
                    1,
                    GpuTarget.mig(
                        new GpuIndex(0),
                        List.of(GpuInstanceSpec.whole(ProfileName.parse("1g.5gb"))))));
    assertThat(outcome.state()).isEqualTo(GpuResult.State.INFEASIBLE);
    assertThat(outcome.reason()).contains("GPU 0");
  }

  @Test
  void aGpuThatIsNotTheOneAnExplicitLayoutWasMadeForIsNeverReshaped() {
    node.reset("A100-SXM4-40GB");
    Desired madeElsewhere =
        new Desired(
                Desired.Source.REST,
                new Desired.Intent.Layout(List.of(GpuTarget.mig(new GpuIndex(0), List.of()))),
                1,
                "",
                "",
                Map.of())
            .resolvedAgainst(Map.of(0, "GPU-00000000-0000-0000-0000-000000000000"));
    Outcome outcome = node.reconciler(shipped, RebootPolicy.DISABLED).reconcile(madeElsewhere);
    assertThat(outcome.state()).isEqualTo(GpuResult.State.INFEASIBLE);
    assertThat(outcome.reason()).contains("GPU-00000000");
    assertThat(gpu(0).migMode().current()).isFalse();
  }

  @Test
  void anUnknownConfigNameSaysSo() {
    node.reset("A100-SXM4-40GB");
    Outcome outcome =
        node.reconciler(shipped, RebootPolicy.DISABLED).reconcile(config("all-9g.99gb", 1));
    assertThat(outcome.state()).isEqualTo(GpuResult.State.INFEASIBLE);
    assertThat(outcome.reason()).contains("all-9g.99gb");
  }
}
