package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KILL matrix of issue 18 item 6 (one child JVM per kill point, 12 in all, about a second
 * each): a prepare or an unprepare is killed (SIGKILL, the simulator's {@code KILL} fault) right
 * after each state-changing NVML call it makes; a restart ({@link ClaimPreparer#recover}) must then
 * converge: no instance without an owning claim (nothing leaked), the claim prepared before still
 * owning its instance (nothing lost), and the operation, repeated, succeeding. GPU 0 is an A100
 * with MIG enabled, a completed claim ("keeper") at 1g.5gb@6 and an idle 2g.10gb@0 that the new
 * placement overlaps; GPU 1 an H100 with MIG disabled.
 */
class ClaimKillIT {
  private static final String MODELS = "A100-SXM4-40GB,H100-SXM5-80GB";

  @TempDir Path root;

  /** One operation to kill: its setup beyond the common one, and its state-changing calls. */
  record Scenario(
      String name,
      String operation,
      String uid,
      int gpu,
      String profile,
      int start,
      Consumer<ClaimsRig> setup,
      List<String> calls) {}

  private static final List<String> CREATE_ON_A100 =
      List.of(
          "nvmlComputeInstanceDestroy@0#1",
          "nvmlGpuInstanceDestroy@0#1",
          "nvmlDeviceCreateGpuInstanceWithPlacement@0#1",
          "nvmlGpuInstanceCreateComputeInstanceWithPlacement@0#1");

  private static final List<Scenario> SCENARIOS =
      List.of(
          new Scenario(
              "prepare, destroying an overlapping idle instance",
              "prepare",
              "new",
              0,
              "1g.5gb",
              1,
              rig -> {},
              CREATE_ON_A100),
          new Scenario(
              "prepare on a Hopper GPU, enabling MIG",
              "prepare",
              "new",
              1,
              "1g.10gb",
              0,
              rig -> {},
              List.of(
                  "nvmlDeviceSetMigMode@1#1",
                  "nvmlDeviceCreateGpuInstanceWithPlacement@1#1",
                  "nvmlGpuInstanceCreateComputeInstanceWithPlacement@1#1")),
          new Scenario(
              "prepare of a Hopper GPU whole, disabling MIG",
              "prepare",
              "whole",
              1,
              null,
              -1,
              rig -> {
                rig.enableMig(1);
                rig.idleInstance(1, "1g.10gb", 2);
              },
              List.of(
                  "nvmlComputeInstanceDestroy@1#1",
                  "nvmlGpuInstanceDestroy@1#1",
                  "nvmlDeviceSetMigMode@1#1")),
          new Scenario(
              "unprepare",
              "unprepare",
              "new",
              0,
              "1g.5gb",
              1,
              rig ->
                  assertThat(rig.prepare(rig.allocate("new", rig.deviceAt(0, "1g.5gb", 1))))
                      .isInstanceOf(PrepareAnswer.Prepared.class),
              List.of("nvmlComputeInstanceDestroy@0#1", "nvmlGpuInstanceDestroy@0#1")));

  /**
   * A kill after the claim's instances are made and its CDI spec written, before its completed
   * record: the restart undoes the started claim (instances and spec), and the kubelet's retry
   * prepares it again.
   */
  @Test
  void convergesAfterAKillBetweenTheCdiSpecAndTheCompletedRecord() throws Exception {
    var s = SCENARIOS.getFirst();
    killAndRecover(
        new Scenario(
            "prepare, killed after its CDI spec",
            s.operation(),
            s.uid(),
            s.gpu(),
            s.profile(),
            s.start(),
            s.setup(),
            List.of()),
        "CDI");
  }

  @TestFactory
  Stream<DynamicTest> convergesAfterAKillAfterEveryStateChangingCall() {
    return SCENARIOS.stream()
        .flatMap(
            s ->
                s.calls().stream()
                    .map(
                        call ->
                            dynamicTest(
                                s.name() + ": " + call + "=KILL", () -> killAndRecover(s, call))));
  }

  /**
   * The matrix is complete: run in this process without a fault, each operation makes exactly the
   * state-changing calls its scenario kills after.
   */
  @TestFactory
  Stream<DynamicTest> eachScenarioListsEveryStateChangingCallItMakes() {
    return SCENARIOS.stream().map(s -> dynamicTest(s.name(), () -> countCalls(s)));
  }

  private void countCalls(Scenario s) throws Exception {
    Path dir = Files.createDirectories(root.resolve("count-" + SCENARIOS.indexOf(s)));
    try (var rig = ClaimsRig.start(dir, MODELS)) {
      String device = setUp(rig, s);
      rig.calls.clear();
      var claim = rig.allocate(s.uid(), device);
      Object answer = s.operation().equals("prepare") ? rig.prepare(claim) : rig.unprepare(claim);
      assertThat(answer.toString()).doesNotContain("Failed");
      assertThat(rig.calls.stream().filter(STATE_CHANGING::contains).toList())
          .as("state-changing calls of %s", s.name())
          .containsExactlyInAnyOrderElementsOf(
              s.calls().stream().map(c -> c.substring(0, c.indexOf('@'))).toList());
    }
  }

  private static final List<String> STATE_CHANGING =
      List.of(
          "nvmlDeviceSetMigMode",
          "nvmlDeviceCreateGpuInstanceWithPlacement",
          "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
          "nvmlComputeInstanceDestroy",
          "nvmlGpuInstanceDestroy");

  /** The common start (a keeper claim, an idle instance), then the scenario's; its device. */
  private static String setUp(ClaimsRig rig, Scenario s) {
    rig.enableMig(0);
    var keeper = rig.allocate("keeper", rig.deviceAt(0, "1g.5gb", 6));
    assertThat(rig.prepare(keeper)).isInstanceOf(PrepareAnswer.Prepared.class);
    rig.idleInstance(0, "2g.10gb", 0);
    s.setup().accept(rig);
    return s.profile() == null ? "gpu-" + s.gpu() : rig.deviceAt(s.gpu(), s.profile(), s.start());
  }

  private void killAndRecover(Scenario s, String call) throws Exception {
    Path dir =
        Files.createDirectories(
            root.resolve(s.name().replace(' ', '_') + "-" + call.replace('#', '-')));
    try (var rig = ClaimsRig.start(dir, MODELS)) {
      String device = setUp(rig, s);
      String keeperUuid = migUuidAt(rig, 0, 6);

      int status = ClaimKillProbe.run(dir, call + "=KILL", s.operation(), s.uid(), device);
      assertThat(status).as(ClaimKillProbe.log(dir)).isEqualTo(ClaimKillProbe.KILLED);

      var found = rig.restart();
      // an unprepare cut short leaves its claim owning a GPU instance without a compute instance
      // until the kubelet's retry destroys it
      assertNothingLeaked(rig, found, false);
      assertThat(migUuidAt(rig, 0, 6))
          .as("the keeper's instance, after %s", found)
          .isEqualTo(keeperUuid);
      assertThat(rig.preparer.claimed().all())
          .anyMatch(
              d ->
                  d.key().uid().equals("keeper")
                      && d.completed()
                      && d.device().deviceUuid().equals(keeperUuid));

      var claim = rig.allocate(s.uid(), device);
      if (s.operation().equals("prepare")) {
        assertThat(rig.prepare(claim)).isInstanceOf(PrepareAnswer.Prepared.class);
        if (s.profile() == null) {
          assertThat(rig.migEnabled(s.gpu())).isFalse();
        } else {
          assertThat(migUuidAt(rig, s.gpu(), s.start())).isNotEmpty();
        }
        assertThat(rig.cdi.claims()).containsExactlyInAnyOrder("keeper", s.uid());
      } else {
        assertThat(rig.unprepare(claim)).isInstanceOf(UnprepareAnswer.Unprepared.class);
        assertThat(rig.instances(0)).extracting(gi -> gi.placement().start()).containsExactly(6);
        assertThat(rig.cdi.claims()).containsExactly("keeper");
      }
      assertNothingLeaked(rig, found, true);
    }
  }

  /**
   * Every instance on either GPU belongs to a claim of the checkpoint ({@code whole}: with its
   * compute instance).
   */
  private static void assertNothingLeaked(
      ClaimsRig rig, List<RecoveryFinding> found, boolean whole) {
    var owned = rig.preparer.claimed().all();
    for (int gpu = 0; gpu < 2; gpu++) {
      if (!rig.migEnabled(gpu)) {
        continue;
      }
      for (LiveGpuInstance gi : rig.instances(gpu)) {
        var index = new GpuIndex(gpu);
        assertThat(owned)
            .as("owner of GPU %d instance %s after %s", gpu, gi, found)
            .anyMatch(d -> d.gpu().equals(index) && d.device().owns(gi));
        if (whole) {
          assertThat(gi.computeInstances()).as("GPU %d instance %s", gpu, gi).isNotEmpty();
        }
      }
    }
  }

  private static String migUuidAt(ClaimsRig rig, int gpu, int start) {
    return rig.instances(gpu).stream()
        .filter(gi -> gi.placement().start() == start)
        .flatMap(gi -> gi.computeInstances().stream())
        .map(ci -> ci.uuid())
        .findFirst()
        .orElse("");
  }
}
