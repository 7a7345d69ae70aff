package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.devices.Device;
import io.migd.devices.MigStrategy;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsSync;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MPS control daemons of section 11, run through the simulated {@code nvidia-cuda-mps-control}
 * on a node {@code A100-SXM4-40GB,H100-SXM5-80GB,T4}: one daemon per MPS-shared slice or GPU with
 * its environment and limits, restarts, {@code quit} before a slice goes, adoption after a restart
 * of migd, and MPS servers that are never users of their slice.
 */
class MpsLifecycleIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NODE = "A100-SXM4-40GB,H100-SXM5-80GB,T4";
  private static final String A100 =
      """
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
            sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
      """;
  private static final String H100 =
      """
          - devices: [1]
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
      """;
  private static final String CONFIGS =
      "version: v1\nmig-configs:\n  shared:\n"
          + A100
          + H100
          + """
              - devices: [2]
                mig-enabled: false
                mps: {replicas: 4}
          """
          + "  without-the-big-slice:\n"
          + """
              - devices: [0]
                mig-enabled: true
                mig-devices: {"1g.5gb": 7}
          """
          + H100
          + """
              - devices: [2]
                mig-enabled: false
                time-slicing: {replicas: 4}
          """;

  private SimulatedKubeletNode node;
  private String big;
  private String t4;

  @BeforeEach
  void start() {
    node = SimulatedKubeletNode.startWithMps(NODE, CONFIGS, MigStrategy.MIXED);
    assertSucceeded(node.apply("shared"));
    big = node.migUuids(0, "3g.20gb").getFirst();
    t4 = node.gpu(2).uuid();
  }

  @AfterEach
  void stop() throws Exception {
    node.close();
  }

  private static void assertSucceeded(Outcome outcome) {
    assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
  }

  @Test
  void eachMpsDeviceGetsOneDaemonOfTheSupervisorWithItsEnvironmentLimitsShmAndComputeMode()
      throws Exception {
    assertThat(node.mpsDaemons.running()).containsOnlyKeys(big, t4);
    assertThat(node.controlLog(big))
        .startsWith(
            "-f",
            "set_default_active_thread_percentage 50",
            "set_default_device_pinned_mem_limit 0 10048M")
        .containsOnlyOnce("-f");
    assertThat(node.controlLog(t4))
        .startsWith(
            "-f",
            "set_default_active_thread_percentage 25",
            "set_default_device_pinned_mem_limit 0 3840M")
        .containsOnlyOnce("-f");
    assertThat(node.daemonEnvironment(big))
        .containsExactlyInAnyOrder(
            "CUDA_VISIBLE_DEVICES=" + big,
            "CUDA_MPS_PIPE_DIRECTORY=" + node.mps.pipeDirectory(big),
            "CUDA_MPS_LOG_DIRECTORY=" + node.mps.logDirectory(big));
    assertThat(node.daemonEnvironment(t4)).contains("CUDA_VISIBLE_DEVICES=" + t4);
    assertThat(node.mps.logDirectory(big)).isDirectory();
    assertThat(node.mps.sharedMemory(big)).isDirectory();
    assertThat(Files.readString(node.mps.daemonFile(t4)))
        .contains("\"device\": \"" + t4 + "\"", "\"wholeGpu\": true", "\"shmSizeBytes\": 67108864");
    assertThat(Files.readString(node.mps.stateFile(t4)).strip())
        .isEqualTo("running " + node.mpsDaemons.running().get(t4));
    try (var dirs = Files.list(node.mps.root())) {
      assertThat(dirs.map(d -> d.getFileName().toString())).containsExactlyInAnyOrder(big, t4);
    }
    assertThat(node.computeMode(2)).as("the T4, shared whole by MPS").isEqualTo(3);
    assertThat(
            Files.readAllLines(Path.of("/proc", node.supervisor.process().pid() + "", "status"))
                .stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                .findFirst()
                .orElseThrow())
        .as("the supervisor's resident memory, KiB (no JVM)")
        .isLessThan(10 * 1024);
    assertThat(node.computeMode(0)).as("a GPU whose slice is shared").isZero();
    assertThat(node.sim.require("status"))
        .containsPattern("compute +0 MiB +nvidia-cuda-mps-server");
  }

  @Test
  void aKilledDaemonIsStartedAgainItsReplicasUnhealthyMeanwhile() {
    long first = node.mpsDaemons.running().get(big);
    long untouched = node.mpsDaemons.running().get(t4);
    await()
        .atMost(WAIT)
        .until(() -> node.kubelet.ids("nvidia.com/mig-3g.20gb").contains(big + "::1"));
    int publishesBefore = node.published.size();

    ProcessHandle.of(first).orElseThrow().destroyForcibly();
    await().atMost(WAIT).until(() -> ProcessHandle.of(first).isEmpty());
    node.mpsDaemons.check();

    long second = node.mpsDaemons.running().get(big);
    assertThat(second).isNotEqualTo(first);
    assertThat(ProcessHandle.of(second)).isPresent();
    assertThat(node.controlLog(big).stream().filter("-f"::equals)).hasSize(2);
    var after = node.published.subList(publishesBefore, node.published.size());
    assertThat(after)
        .anySatisfy(
            p ->
                assertThat(p.inventory().devices("nvidia.com/mig-3g.20gb"))
                    .extracting(Device::healthy)
                    .containsOnly(false));
    assertThat(after.getLast().inventory().devices("nvidia.com/mig-3g.20gb"))
        .extracting(Device::healthy)
        .containsOnly(true);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        node.kubelet
                            .latest("nvidia.com/mig-3g.20gb")
                            .orElseThrow()
                            .getDevicesList())
                    .extracting(d -> d.getHealth())
                    .containsOnly("Healthy"));
    assertThat(node.mpsDaemons.running())
        .as("the other GPU's daemon is left running")
        .containsEntry(t4, untouched);
    assertThat(ProcessHandle.of(untouched)).isPresent();
  }

  @Test
  void aReshapeRemovingAnMpsSliceQuitsItsDaemonFirstAndUnsharingQuitsTheGpus() {
    long bigPid = node.mpsDaemons.running().get(big);
    long t4Pid = node.mpsDaemons.running().get(t4);

    assertSucceeded(node.apply("without-the-big-slice"));

    assertThat(node.mpsCommands).contains(big + " quit present");
    assertThat(node.controlLog(big)).last().isEqualTo("quit");
    assertThat(node.controlLog(t4)).last().isEqualTo("quit");
    assertThat(node.migUuids(0, "3g.20gb")).isEmpty();
    assertThat(node.mpsDaemons.running()).isEmpty();
    assertThat(node.mps.daemonFile(big)).doesNotExist();
    await()
        .atMost(WAIT)
        .until(() -> ProcessHandle.of(bigPid).isEmpty() && ProcessHandle.of(t4Pid).isEmpty());
    await().atMost(WAIT).untilAsserted(() -> assertThat(node.computeMode(2)).isZero());
  }

  @Test
  void aRestartOfMigdAdoptsTheRunningDaemonsAndStartsNoSecond() {
    var before = node.mpsDaemons.running();

    var restarted =
        new MpsDaemons(
            node.mpsControl(),
            MpsDaemons.Settings.under(node.mps),
            node.surface,
            SimulatedKubeletNode.CATALOG);
    restarted.findRunning();
    Desired desired = Desired.config(Desired.Source.FILE, "shared", 1);
    Outcome outcome = node.reconciler.reconcile(desired);
    new MpsSync(restarted).reconciled(desired, outcome);

    assertThat(restarted.running()).isEqualTo(before);
    assertThat(node.controlLog(big).stream().filter("-f"::equals)).hasSize(1);
    assertThat(node.controlLog(t4).stream().filter("-f"::equals)).hasSize(1);
    before.values().forEach(pid -> assertThat(ProcessHandle.of(pid)).isPresent());
  }

  @Test
  void aPlanQuitsItsDaemonsWhileAnotherDaemonIsBeingStarted() throws Exception {
    long t4Daemon = node.mpsDaemons.running().get(t4);
    // the supervisor is held, so the T4's daemon is not run again until the test lets it
    node.holdSupervisor(true);
    Thread supervision;
    try {
      ProcessHandle.of(t4Daemon).ifPresent(ProcessHandle::destroyForcibly);
      var where = slice(0, big);
      // supervision finds the T4's daemon gone and waits inside its start
      supervision = Thread.ofPlatform().start(node.mpsDaemons::check);
      await().atMost(WAIT).until(() -> !node.mpsDaemons.running().containsKey(t4));

      // meanwhile GPU 0's plan destroys the big slice: its daemon must quit before the plan runs
      var quit =
          CompletableFuture.runAsync(
              () ->
                  node.mpsDaemons.planMade(
                      new GpuIndex(0),
                      new Plan(
                          List.of(new Step.DestroyGpuInstance(new GpuIndex(0), where.gi().id())))),
              command -> Thread.ofPlatform().start(command));

      await().atMost(Duration.ofSeconds(30)).until(quit::isDone);
      assertThat(supervision.isAlive()).as("the start is still in flight").isTrue();
      assertThat(node.controlLog(big)).last().isEqualTo("quit");
      assertThat(node.mps.daemonFile(big)).doesNotExist();
      assertThat(node.mpsDaemons.running()).doesNotContainKey(big);
    } finally {
      node.holdSupervisor(false);
    }
    supervision.join();
    assertThat(node.mpsDaemons.running()).containsKey(t4);
  }

  @Test
  void aStateNamingAnotherProcessIsNotTakenForTheDaemon() throws Exception {
    long t4Daemon = node.mpsDaemons.running().get(t4);
    Process other = new ProcessBuilder("sleep", "600").start();
    try {
      node.holdSupervisor(true);
      ProcessHandle.of(t4Daemon).ifPresent(ProcessHandle::destroyForcibly);
      // the state stays behind, and the kernel gives the daemon's pid to another process
      Path state = node.mps.stateFile(t4);
      Files.writeString(state, "running " + other.pid() + "\n");
      Files.setLastModifiedTime(state, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
      var restarted =
          new MpsDaemons(
              node.mpsControl(),
              MpsDaemons.Settings.under(node.mps),
              node.surface,
              SimulatedKubeletNode.CATALOG);
      restarted.findRunning();
      node.holdSupervisor(false);

      Desired desired = Desired.config(Desired.Source.FILE, "shared", 1);
      Outcome outcome = node.reconciler.reconcile(desired);
      new MpsSync(restarted).reconciled(desired, outcome);

      assertThat(restarted.running()).containsKey(t4);
      assertThat(restarted.running().get(t4)).isNotEqualTo(other.pid());
      assertThat(ProcessHandle.of(restarted.running().get(t4))).isPresent();
      assertThat(node.controlLog(t4).stream().filter("-f"::equals)).hasSize(2);
      assertThat(other.isAlive()).as("the other process is left alone").isTrue();
    } finally {
      other.destroyForcibly();
    }
  }

  @Test
  void anMpsClientHoldsItsSliceButTheMpsServerAloneDoesNot() {
    var where = slice(0, big);
    node.sim.require(
        "attach",
        "--gpu",
        "0",
        "--gi",
        Integer.toString(where.gi().id()),
        "--ci",
        Integer.toString(where.ci().id()),
        "--pid",
        "4242",
        "--mem",
        "1000",
        "--name",
        "trainer");

    Outcome blocked = node.apply("without-the-big-slice");

    var gpu0 = blocked.results().get(new GpuIndex(0));
    assertThat(gpu0.state()).isEqualTo(GpuResult.State.BLOCKED);
    assertThat(gpu0.reason()).contains("4242").doesNotContain("nvidia-cuda-mps-server");
    assertThat(node.migUuids(0, "3g.20gb")).containsExactly(big);
    assertThat(node.mpsDaemons.running()).containsKey(big);

    node.sim.require("detach", "--pid", "4242");
    assertSucceeded(node.apply("without-the-big-slice"));
    assertThat(node.migUuids(0, "3g.20gb")).isEmpty();
    assertThat(node.mpsCommands).contains(big + " quit present");
  }

  private record Where(LiveGpuInstance gi, LiveComputeInstance ci) {}

  private Where slice(int gpu, String uuid) {
    for (LiveGpuInstance gi : node.gpu(gpu).gpuInstances()) {
      for (LiveComputeInstance ci : gi.computeInstances()) {
        if (ci.uuid().equals(uuid)) {
          return new Where(gi, ci);
        }
      }
    }
    throw new AssertionError(uuid + " is not on GPU " + gpu);
  }
}
