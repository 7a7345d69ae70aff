package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeModels;
import io.migd.layout.ObservedGpu;
import io.migd.plan.Decision;
import io.migd.plan.Step;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DESIGN section 2, NVML first: MIG GPUs the built-in catalogue lacks (given to the simulator by
 * {@code NVML_SIM_MODELS}, see core/pom.xml: an H100 PCIe-like Hopper whose GPU-instance ids follow
 * the swapped halves, and an Ampere one) get their layouts in device-plugin mode, the generated
 * configs cover them, and a config naming profiles NVML cannot list yet waits for MIG.
 */
class UncataloguedGpusIT {
  private static final String MODELS = "H100-PCIE-SIM,A100-PCIE-SIM";
  private static final GpuIndex H100 = new GpuIndex(0);
  private static final GpuIndex A100 = new GpuIndex(1);
  private static SimulatedNode node;

  @BeforeAll
  static void start() {
    node = SimulatedNode.start(MODELS);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static final MigConfigFile NAMED =
      MigConfigParser.parse(
          """
          version: v1
          mig-configs:
            halves:
              - devices: all
                device-filter: ["0x233110DE"]
                mig-enabled: true
                mig-devices: {"3g.40gb": 2}
              - devices: all
                device-filter: ["0x20F110DE"]
                mig-enabled: true
                mig-devices: {"1g.5gb": 7}
          """);

  @Test
  void aConfigFileNamingTheirProfilesLaysThemOut() {
    node.reset(MODELS);
    Outcome outcome = node.reconciler(NAMED, RebootPolicy.DISABLED).reconcile(config("halves"));

    assertThat(outcome.state()).as(outcome.reason()).isEqualTo(GpuResult.State.SUCCESS);
    // swapped halves: the 4-slice half at 0 is GPU instance 2, the one at 4 is 1
    assertThat(gpu(H100).gpuInstances())
        .extracting(gi -> gi.profile() + "@" + gi.placement().start() + "#" + gi.id())
        .containsExactly("3g.40gb@0#2", "3g.40gb@4#1");
    assertThat(gpu(A100).gpuInstances()).hasSize(7);
  }

  @Test
  void theGeneratedConfigsCoverThemWithTheirProfilesFromNvml() {
    node.reset(MODELS);
    GpuModelCatalog nodeModels = NodeModels.of(node.nvml, GpuModelCatalog.builtIn());
    assertThat(nodeModels.byPciDeviceId(0x233110DE)).isPresent();
    assertThat(GpuModelCatalog.builtIn().byPciDeviceId(0x233110DE)).isEmpty();
    MigConfigFile generated = GeneratedConfigs.forModels(nodeModels.models());
    Reconciler reconciler = node.reconciler(generated, RebootPolicy.DISABLED);

    Outcome balanced = reconciler.reconcile(config("all-balanced"));
    assertThat(balanced.state()).as(balanced.reason()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(gpu(H100).gpuInstances())
        .extracting(gi -> gi.profile().toString())
        .containsExactlyInAnyOrder("1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb");
    assertThat(gpu(A100).gpuInstances()).hasSize(4);

    Outcome filled = reconciler.reconcile(config("all-1g.10gb"));
    assertThat(filled.state()).as(filled.reason()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(gpu(H100).gpuInstances()).hasSize(7);

    Outcome disabled = reconciler.reconcile(config("all-disabled"));
    assertThat(disabled.state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(node.observe().gpus()).noneMatch(g -> g.migMode().current());
  }

  @Test
  void profilesNvmlCannotListYetWaitForMigWhichAllEnabledEnables() {
    node.reset(MODELS);
    // a driver that answers no profile query while MIG is off
    node.sim.require(
        "faults",
        "nvmlDeviceGetGpuInstanceProfileInfo@0=NVML_ERROR_NOT_SUPPORTED;"
            + "nvmlDeviceGetGpuInstanceProfileInfoV@0=NVML_ERROR_NOT_SUPPORTED");
    Reconciler reconciler = node.reconciler(NAMED, RebootPolicy.DISABLED);

    Decision named = reconciler.plan(config("halves")).get(H100);
    assertThat(named).isInstanceOf(Decision.Infeasible.class);
    assertThat(((Decision.Infeasible) named).reason())
        .contains("GPU 0 (NVIDIA H100 PCIe, PCI id 0x233110DE)")
        .contains("profiles unknown until MIG is enabled");
    var enabled = generatedReconciler().plan(config("all-enabled")).get(H100);
    assertThat(enabled).isEqualTo(new Decision.Change(plan(new Step.EnableMig(H100))));

    node.sim.require("faults", "");
    assertThat(generatedReconciler().reconcile(config("all-enabled")).succeeded()).isTrue();
    Outcome after = reconciler.reconcile(config("halves"));
    assertThat(after.state()).as(after.reason()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(gpu(H100).gpuInstances()).extracting(LiveGpuInstance::id).containsExactly(2, 1);
  }

  private static Reconciler generatedReconciler() {
    return node.reconciler(
        GeneratedConfigs.forModels(GpuModelCatalog.builtIn().models()), RebootPolicy.DISABLED);
  }

  private static io.migd.plan.Plan plan(Step... steps) {
    return new io.migd.plan.Plan(List.of(steps));
  }

  private static Desired config(String name) {
    return Desired.config(Desired.Source.REST, name, 1);
  }

  private static ObservedGpu gpu(GpuIndex index) {
    return node.observe().gpus().get(index.value());
  }
}
