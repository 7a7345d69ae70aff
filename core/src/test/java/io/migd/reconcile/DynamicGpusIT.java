package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.MigMode;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
import io.migd.plan.Decision;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Static and dynamic GPUs in DRA mode (DESIGN section 12) on simulated GPUs, through the real FFM
 * path: the loop leaves a dynamic GPU's instances to the claims, enables MIG only on Ampere, keeps
 * static devices that claims hold, and holds a GPU turning static until its claims are gone.
 */
class DynamicGpusIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static MigConfigFile configs;
  private static SimulatedNode node;

  private final List<ClaimedDevice> claimed = new CopyOnWriteArrayList<>();
  private final ClaimedDevices claims =
      () -> claimed.stream().map(d -> d.claim().with(d.completed(), List.of(d.entry()))).toList();
  private final List<List<String>> guardAsked = new CopyOnWriteArrayList<>();
  private final List<String> guardAnswers = new CopyOnWriteArrayList<>();
  private final List<GpuIndex> resets = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    var all =
        new ArrayList<MigConfig>(
            GeneratedConfigs.forModels(SimulatedNode.CATALOG.models()).configs());
    all.addAll(
        MigConfigParser.parse(
                """
                version: v1
                mig-configs:
                  time-sliced:
                    - devices: all
                      mig-enabled: false
                      time-slicing: {replicas: 2}
                  shared-slices:
                    - devices: all
                      mig-enabled: true
                      mig-devices: {"1g.5gb": 7}
                      sharing: {"1g.5gb": {mps: {replicas: 2}}}
                  seven-small:
                    - devices: all
                      mig-enabled: true
                      mig-devices: {"1g.5gb": 7}
                  fractions:
                    - devices: all
                      mig-enabled: true
                      dynamic: true
                      shares: true
                """)
            .configs());
    configs = MigConfigFile.of(all);
    node = SimulatedNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @BeforeEach
  void clear() {
    claimed.clear();
    guardAsked.clear();
    guardAnswers.clear();
    resets.clear();
  }

  private static Desired config(String name) {
    return Desired.config(Desired.Source.FILE, name, 1);
  }

  private Reconciler devicePlugin() {
    return node.reconciler(configs, RebootPolicy.DISABLED, ProgressListener.NONE, this::reset);
  }

  private Reconciler dra() {
    StaticDeviceGuard guard =
        names -> {
          guardAsked.add(names);
          return List.copyOf(guardAnswers);
        };
    return devicePlugin().withOwnership(DeviceOwnership.dra(claims, guard));
  }

  /** Resets as nvidia-smi would, once persistenced (pid 99, NVML does not list it) let go. */
  private GpuReset.Result reset(ObservedGpu gpu) {
    resets.add(gpu.index());
    node.sim.control("detach", "--pid", "99");
    var result = node.sim.resetGpu(gpu.index().value());
    return GpuReset.Result.of(result.succeeded(), result.output());
  }

  private static ObservedGpu gpu(int index) {
    return node.observe().gpus().get(index);
  }

  /**
   * A claim's prepare made {@code gi} on the GPU while it was dynamic (the checkpoint's CREATED).
   */
  private static ClaimedDevice createdFor(String name, ObservedGpu gpu, LiveGpuInstance gi) {
    return claim(name, gpu, gi, true);
  }

  /** A claim holds {@code gi} as it was (a static device). */
  private static ClaimedDevice claimOf(String name, ObservedGpu gpu, LiveGpuInstance gi) {
    return claim(name, gpu, gi, false);
  }

  private static ClaimedDevice claim(
      String name, ObservedGpu gpu, LiveGpuInstance gi, boolean created) {
    var ci = gi.computeInstances().getFirst();
    return owner(
        "default",
        name,
        true,
        new ClaimDevice.Made(
            "gpu-" + gpu.minor() + "-mig-" + gi.profile(),
            gpu.index(),
            gpu.uuid(),
            new ClaimDevice.MigInstance(gi.id(), ci.id(), ci.uuid())),
        created);
  }

  /** A claim ({@code completed} or only started) owning {@code device}. */
  static ClaimedDevice owner(
      String namespace, String name, boolean completed, ClaimDevice device, boolean created) {
    var entry =
        new CheckpointClaim.Device(
            device, created ? Kind.CREATED : Kind.STATIC, List.of(), List.of(), "");
    return new ClaimedDevice(
        new CheckpointClaim(
            new ClaimKey("uid-" + name, namespace, name), completed, List.of(entry)),
        entry);
  }

  @Test
  void dynamicIsInfeasibleInDevicePluginModeAndSharingInDraMode() {
    node.reset("A100-SXM4-40GB,T4");

    Outcome dynamic = devicePlugin().reconcile(config("all-dynamic"));
    assertThat(dynamic.results().get(GPU0)).isInstanceOf(GpuResult.Infeasible.class);
    assertThat(dynamic.results().get(GPU0).reason())
        .isEqualTo(
            "GPU 0: dynamic needs migd.kubelet.mode=dra (the device plugin cannot make instances"
                + " when pods are scheduled)");
    // all-dynamic selects every GPU: the T4, without MIG, keeps its whole GPU
    assertThat(dynamic.results().get(GPU1).state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(dynamic.dynamic(GPU1)).isFalse();
    assertThat(gpu(0).migMode().current()).isFalse();

    Reconciler dra = dra();
    Outcome timeSliced = dra.reconcile(config("time-sliced"));
    assertThat(timeSliced.results().values())
        .allSatisfy(
            r -> {
              assertThat(r).isInstanceOf(GpuResult.Infeasible.class);
              assertThat(r.reason()).contains("sharing is not available in dra mode");
            });
    Outcome slices = dra.reconcile(config("shared-slices"));
    assertThat(slices.results().get(GPU0).reason())
        .isEqualTo(
            "GPU 0: sharing is not available in dra mode (time-slicing, mps and sharing need"
                + " migd.kubelet.mode=device-plugin)");
    assertThat(gpu(0).gpuInstances()).isEmpty();
  }

  @Test
  void sharesAreInfeasibleInDevicePluginModeAndAskedOfDynamicAndWholeGpusInDraMode() {
    node.reset("A100-SXM4-40GB,T4");

    Outcome plugin = devicePlugin().reconcile(config("fractions"));
    assertThat(plugin.results().values())
        .allSatisfy(
            r -> {
              assertThat(r).isInstanceOf(GpuResult.Infeasible.class);
              assertThat(r.reason()).contains(": shares need migd.kubelet.mode=dra (");
            });
    assertThat(gpu(0).migMode().current()).isFalse();

    Outcome dra = dra().reconcile(config("fractions"));
    assertThat(dra.shares(GPU0)).isTrue();
    assertThat(dra.dynamic(GPU0)).isTrue();
    // the T4 has no MIG: its whole GPU is shared
    assertThat(dra.shares(GPU1)).isTrue();
    assertThat(dra.dynamic(GPU1)).isFalse();
    assertThat(dra.results().get(GPU1).state()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(dra.targets().get(GPU1).replicas()).isEqualTo(1);

    Outcome unshared = dra().reconcile(config("all-dynamic"));
    assertThat(unshared.shares(GPU0)).isFalse();
    assertThat(unshared.shares(GPU1)).isFalse();
  }

  @Test
  void aGpuWithoutMigIsTheWholeGpuUnsharedInDraModeWhereTheDevicePluginTimeSlicesIt() {
    node.reset("T4");

    Outcome dra = dra().reconcile(config("seven-small"));
    assertThat(dra.succeeded()).as(dra.reason()).isTrue();
    assertThat(dra.targets().get(GPU0).replicas()).isEqualTo(1);
    assertThat(dra.dynamic(GPU0)).isFalse();

    Outcome plugin = devicePlugin().reconcile(config("seven-small"));
    assertThat(plugin.targets().get(GPU0).replicas()).isEqualTo(7);
  }

  @Test
  void ampereDynamicGpuGetsMigEnabledThroughTheResetPath() {
    node.reset("A100-SXM4-40GB,T4");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "99", "--name", "persistenced");

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    assertThat(outcome.gpus().get(GPU0).decision()).isInstanceOf(Decision.Change.class);
    assertThat(resets).containsExactly(GPU0);
    assertThat(gpu(0).migMode().current()).isTrue();
    assertThat(gpu(0).gpuInstances()).isEmpty();
    assertThat(outcome.dynamic(GPU0)).isTrue();
    assertThat(outcome.dynamic(GPU1)).as("a T4 stays static").isFalse();
    assertThat(outcome.gpus().get(GPU0).turningStatic()).isFalse();
  }

  /**
   * Kubernetes 1.35 without the partitionable-devices gate (DESIGN section 12): a {@code dynamic:
   * true} Ampere GPU keeps the layout it has, MIG off and unreset, and its reason says why. Before,
   * the dynamic planner ran anyway: MIG enabled through a reset, zero instances, {@code success}.
   */
  @Test
  void whereDynamicGpusCannotBePublishedADynamicGpuKeepsItsLayoutAndSaysWhy() {
    node.reset("A100-SXM4-40GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "99", "--name", "persistenced");
    String why = "Kubernetes 1.35 without migd.dra.partitionable=true";

    Outcome outcome =
        devicePlugin()
            .withOwnership(
                DeviceOwnership.dra(
                    claims, StaticDeviceGuard.NONE, () -> java.util.Optional.of(why)))
            .reconcile(config("all-dynamic"));

    assertThat(outcome.gpus().get(GPU0).decision()).isInstanceOf(Decision.Infeasible.class);
    assertThat(outcome.gpus().get(GPU0).reason())
        .contains("GPU 0 is dynamic")
        .contains(why)
        .contains("keeps the layout it has");
    assertThat(outcome.dynamic(GPU0)).as("published as static").isFalse();
    assertThat(resets).isEmpty();
    assertThat(gpu(0).migMode().current()).isFalse();
    assertThat(gpu(0).migMode().changePending()).isFalse();
  }

  @Test
  void ampereDynamicGpuInUseWaitsForMigNamingTheProcess() {
    node.reset("A100-SXM4-40GB");
    node.sim.require("attach", "--gpu", "0", "--pid", "555", "--mem", "100", "--name", "jupyter");

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    assertThat(outcome.results().get(GPU0)).isInstanceOf(GpuResult.Blocked.class);
    assertThat(outcome.reason()).contains("process 555 (jupyter)").contains("MIG enabled");
    assertThat(resets).isEmpty();
    assertThat(gpu(0).migMode().current()).isFalse();
  }

  @Test
  void hopperDynamicGpuKeepsItsMigModeForTheClaims() {
    node.reset("H100-SXM5-80GB");

    Outcome off = dra().reconcile(config("all-dynamic"));

    assertThat(off.results().get(GPU0)).isInstanceOf(GpuResult.InSync.class);
    assertThat(off.dynamic(GPU0)).isTrue();
    assertThat(gpu(0).migMode()).isEqualTo(new MigMode(false, false));
    assertThat(resets).isEmpty();

    assertThat(devicePlugin().reconcile(config("all-enabled")).succeeded()).isTrue();
    Outcome on = dra().reconcile(config("all-dynamic"));
    assertThat(on.results().get(GPU0)).isInstanceOf(GpuResult.InSync.class);
    assertThat(gpu(0).migMode().current()).isTrue();
  }

  @Test
  void theLoopLeavesADynamicGpusClaimedAndIdleInstancesAlone() {
    node.reset("H100-SXM5-80GB,A100-SXM4-40GB");
    assertThat(devicePlugin().reconcile(config("all-balanced")).succeeded()).isTrue();
    var before = node.observe();
    var h100 = before.gpus().get(0);
    claimed.add(claimOf("train", h100, h100.gpuInstances().getFirst()));
    var a100 = before.gpus().get(1);
    claimed.add(claimOf("infer", a100, a100.gpuInstances().getLast()));

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    assertThat(outcome.results().values()).allMatch(r -> r instanceof GpuResult.InSync);
    assertThat(node.observe()).isEqualTo(before);
  }

  @Test
  void aPrepareUnderWayLeavesItsDynamicGpuInSyncBesideIdleInstances() {
    node.reset("H100-SXM5-80GB");
    assertThat(devicePlugin().reconcile(config("all-balanced")).succeeded()).isTrue();
    var h100 = gpu(0);
    var making = h100.gpuInstances().getFirst();
    // prepareStarted: the placement is recorded, its instance just made and not recorded yet
    claimed.add(
        owner(
            "default",
            "train",
            false,
            new ClaimDevice.Planned(
                "gpu-0-mig-being-made", GPU0, h100.uuid(), making.profileId(), making.placement()),
            true));
    var before = node.observe();

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    assertThat(outcome.results().get(GPU0))
        .as(outcome.results().get(GPU0).reason())
        .isInstanceOf(GpuResult.InSync.class);
    assertThat(node.observe()).isEqualTo(before);
  }

  @Test
  void anInstanceNoClaimOwnsThatAProcessUsesBlocksTheDynamicGpuAndStays() {
    node.reset("H100-SXM5-80GB");
    assertThat(devicePlugin().reconcile(config("all-balanced")).succeeded()).isTrue();
    var gi = gpu(0).gpuInstances().getFirst();
    node.sim.require(
        "attach",
        "--gpu",
        "0",
        "--gi",
        String.valueOf(gi.id()),
        "--ci",
        "0",
        "--pid",
        "77",
        "--mem",
        "10",
        "--name",
        "stray");
    var before = node.observe();

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    GpuResult result = outcome.results().get(GPU0);
    assertThat(result).isInstanceOf(GpuResult.Blocked.class);
    assertThat(((GpuResult.Blocked) result).holders()).containsExactly("process 77 (stray)");
    assertThat(result.reason()).contains("no claim owns it");
    assertThat(node.observe().gpus().getFirst().gpuInstances())
        .isEqualTo(before.gpus().getFirst().gpuInstances());
  }

  @Test
  void aClaimWhoseInstanceIsGoneBlocksTheDynamicGpuNamingTheClaim() {
    node.reset("H100-SXM5-80GB");
    assertThat(devicePlugin().reconcile(config("all-enabled")).succeeded()).isTrue();
    var h100 = gpu(0);
    claimed.add(
        owner(
            "ml",
            "lost",
            true,
            new ClaimDevice.Made(
                "gpu-0-mig-1g10gb-19-0",
                GPU0,
                h100.uuid(),
                new ClaimDevice.MigInstance(9, 0, "MIG-gone")),
            true));

    Outcome outcome = dra().reconcile(config("all-dynamic"));

    GpuResult result = outcome.results().get(GPU0);
    assertThat(result).isInstanceOf(GpuResult.Blocked.class);
    assertThat(((GpuResult.Blocked) result).holders()).containsExactly("claim ml/lost");
    assertThat(result.reason()).contains("NVML does not show");
  }

  @Test
  void aStaticDeviceAClaimIsAllocatedBlocksThePlanThatRemovesIt() {
    node.reset("A100-SXM4-40GB");
    Reconciler dra = dra();
    assertThat(dra.reconcile(config("all-1g.5gb")).succeeded()).isTrue();
    assertThat(guardAsked).containsExactly(List.of("gpu-0"));
    var before = node.observe();
    guardAsked.clear();
    guardAnswers.add("default/train");

    Outcome outcome = dra.reconcile(config("all-7g.40gb"));

    GpuResult result = outcome.results().get(GPU0);
    assertThat(result).isInstanceOf(GpuResult.Blocked.class);
    assertThat(((GpuResult.Blocked) result).holders()).containsExactly("claim default/train");
    assertThat(result.reason()).contains("claim default/train").contains("gpu-0-mig-1g5gb-19-0");
    assertThat(guardAsked).hasSize(1);
    assertThat(guardAsked.getFirst())
        .containsExactlyInAnyOrder(
            "gpu-0-mig-1g5gb-19-0",
            "gpu-0-mig-1g5gb-19-1",
            "gpu-0-mig-1g5gb-19-2",
            "gpu-0-mig-1g5gb-19-3",
            "gpu-0-mig-1g5gb-19-4",
            "gpu-0-mig-1g5gb-19-5",
            "gpu-0-mig-1g5gb-19-6");
    assertThat(node.observe()).isEqualTo(before);

    guardAnswers.clear();
    assertThat(dra.reconcile(config("all-7g.40gb")).succeeded()).isTrue();
  }

  @Test
  void aPreparedClaimHoldsItsStaticSliceInDraMode() {
    node.reset("A100-SXM4-40GB");
    Reconciler dra = dra();
    assertThat(dra.reconcile(config("all-1g.5gb")).succeeded()).isTrue();
    var a100 = gpu(0);
    claimed.add(claimOf("train", a100, a100.gpuInstances().get(2)));

    Outcome outcome = dra.reconcile(config("all-7g.40gb"));

    assertThat(outcome.results().get(GPU0)).isInstanceOf(GpuResult.Blocked.class);
    assertThat(((GpuResult.Blocked) outcome.results().get(GPU0)).holders())
        .containsExactly("claim default/train");
    assertThat(gpu(0).gpuInstances()).hasSize(7);
  }

  @Test
  void aGpuTurningStaticStaysBlockedWhileAClaimIsPreparedOnIt() {
    node.reset("H100-SXM5-80GB");
    assertThat(devicePlugin().reconcile(config("all-1g.10gb")).succeeded()).isTrue();
    var h100 = gpu(0);
    claimed.add(createdFor("train", h100, h100.gpuInstances().get(3)));
    Reconciler dra = dra();
    assertThat(dra.reconcile(config("all-dynamic")).succeeded()).isTrue();
    var before = node.observe();

    Outcome switching = dra.reconcile(config("all-1g.10gb"));

    var entry = switching.gpus().get(GPU0);
    assertThat(entry.result()).isInstanceOf(GpuResult.Blocked.class);
    assertThat(entry.decision()).isInstanceOf(Decision.Blocked.class);
    assertThat(((GpuResult.Blocked) entry.result()).holders())
        .containsExactly("claim default/train");
    assertThat(entry.result().reason()).contains("turns from dynamic to static");
    assertThat(entry.turningStatic()).isTrue();
    assertThat(entry.dynamic()).isFalse();
    assertThat(dra.plan(config("all-1g.10gb")).get(GPU0))
        .as("a dry run decides as the loop does")
        .isInstanceOf(Decision.Blocked.class);
    assertThat(node.observe()).isEqualTo(before);

    claimed.clear();
    Outcome released = dra.reconcile(config("all-1g.10gb"));
    assertThat(released.succeeded()).as(released.reason()).isTrue();
    assertThat(released.gpus().get(GPU0).turningStatic()).isFalse();
  }

  @Test
  void aGpuTurningStaticStaysBlockedWhileAClaimIsAllocatedOneOfItsDynamicDevicesUnprepared() {
    node.reset("H100-SXM5-80GB");
    var pending = new CopyOnWriteArrayList<>(List.of("ml/pending"));
    var guard =
        new StaticDeviceGuard() {
          @Override
          public List<String> claimsHolding(List<String> deviceNames) {
            return List.of();
          }

          @Override
          public List<String> claimsOfDynamicDevices(GpuIndex gpu) {
            return List.copyOf(pending);
          }
        };
    Reconciler dra = devicePlugin().withOwnership(DeviceOwnership.dra(claims, guard));
    assertThat(dra.reconcile(config("all-dynamic")).succeeded()).isTrue();
    var before = node.observe();

    Outcome switching = dra.reconcile(config("all-1g.10gb"));

    GpuResult result = switching.results().get(GPU0);
    assertThat(result).isInstanceOf(GpuResult.Blocked.class);
    assertThat(((GpuResult.Blocked) result).holders()).containsExactly("claim ml/pending");
    assertThat(result.reason()).contains("turns from dynamic to static", "allocated or prepared");
    assertThat(node.observe()).isEqualTo(before);

    pending.clear();
    Outcome released = dra.reconcile(config("all-1g.10gb"));
    assertThat(released.succeeded()).as(released.reason()).isTrue();
  }

  @Test
  void aGpuTurningStaticAfterARestartStaysBlockedAsBefore() {
    node.reset("H100-SXM5-80GB");
    assertThat(dra().reconcile(config("all-dynamic")).succeeded()).isTrue();
    assertThat(devicePlugin().reconcile(config("all-1g.10gb")).succeeded()).isTrue();
    var h100 = gpu(0);
    // the claim's instance, as a prepare made it; then migd restarts (a new reconciler, which never
    // saw the GPU dynamic) and the intent turns the GPU static
    claimed.add(createdFor("train", h100, h100.gpuInstances().get(3)));
    var before = node.observe();

    Outcome switching = dra().reconcile(config("all-1g.10gb"));

    assertThat(switching.gpus().get(GPU0).turningStatic()).isTrue();
    assertThat(switching.results().get(GPU0).reason()).contains("turns from dynamic to static");
    assertThat(node.observe()).isEqualTo(before);
  }

  @Test
  void aStaticGpuWhoseSlicesClaimsHoldIsNotTurningStatic() {
    node.reset("H100-SXM5-80GB");
    assertThat(devicePlugin().reconcile(config("all-1g.10gb")).succeeded()).isTrue();
    var h100 = gpu(0);
    claimed.add(claimOf("static", h100, h100.gpuInstances().get(3)));

    Outcome outcome = dra().reconcile(config("all-1g.10gb"));

    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
    assertThat(outcome.gpus().get(GPU0).turningStatic()).isFalse();
  }

  @Test
  void aGpuTurningDynamicKeepsEveryPreparedClaimsInstance() {
    node.reset("H100-SXM5-80GB");
    Reconciler dra = dra();
    assertThat(dra.reconcile(config("all-balanced")).succeeded()).isTrue();
    var h100 = gpu(0);
    claimed.add(claimOf("a", h100, h100.gpuInstances().get(0)));
    claimed.add(claimOf("b", h100, h100.gpuInstances().get(2)));
    var before = node.observe();

    Outcome outcome = dra.reconcile(config("all-dynamic"));

    assertThat(outcome.results().get(GPU0)).isInstanceOf(GpuResult.InSync.class);
    assertThat(outcome.dynamic(GPU0)).isTrue();
    assertThat(node.observe()).isEqualTo(before);
  }
}
