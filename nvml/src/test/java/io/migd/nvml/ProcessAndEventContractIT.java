package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Processes, XID events and the shared state file. */
class ProcessAndEventContractIT {
  private static SimNode node;

  @BeforeAll
  static void start() {
    node = SimNode.start("H100-SXM5-80GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static GpuInstanceHandle oneGpuInstance(DeviceHandle gpu) {
    node.nvml.setMigMode(gpu, true);
    var profile =
        node.nvml.gpuInstanceProfiles(gpu).stream()
            .filter(p -> p.name().equals("MIG 3g.40gb"))
            .findFirst()
            .orElseThrow();
    var gi = node.nvml.createGpuInstance(gpu, profile.id(), new InstancePlacement(0, 4));
    SimNode.createWholeComputeInstance(
        node.nvml, gi, node.nvml.computeInstanceProfiles(gi).getLast().id());
    return gi;
  }

  @Test
  void attachedProcessesShowOnTheGpuAndOnTheirMigDevice() {
    node.reset("H100-SXM5-80GB,H100-SXM5-80GB");
    DeviceHandle gpu = node.gpu(1);
    var gi = oneGpuInstance(gpu);
    int giId = node.nvml.gpuInstanceInfo(gi).id();
    node.sim.require(
        "attach",
        "--gpu",
        "1",
        "--gi",
        Integer.toString(giId),
        "--pid",
        "31337",
        "--mem",
        "2048",
        "--name",
        "trainer");
    DeviceHandle mig = node.nvml.migDeviceByIndex(gpu, 0).orElseThrow();

    assertThat(node.nvml.computeProcesses(gpu))
        .containsExactly(new ProcessInfo(31337, 2048L * 1024 * 1024, giId, 0));
    assertThat(node.nvml.computeProcesses(mig)).extracting(ProcessInfo::pid).containsExactly(31337);
    assertThat(node.nvml.computeProcesses(node.gpu(0))).isEmpty();
    assertThat(node.nvml.processName(31337)).isEqualTo("trainer");
    assertThat(node.nvml.memory(mig).usedBytes()).isEqualTo(2048L * 1024 * 1024);

    assertThat(node.sim.control("attach", "--gpu", "1", "--pid", "5", "--mem", "1").exitStatus())
        .as("a MIG GPU refuses an attach without --gi")
        .isEqualTo(1);
    node.sim.require("detach", "--pid", "31337");
    assertThat(node.nvml.computeProcesses(gpu)).isEmpty();
    assertThat(node.nvml.computeProcesses(mig)).isEmpty();
  }

  @Test
  void anXidReachesEveryRegisteredEventSetOnce() {
    node.reset("H100-SXM5-80GB");
    DeviceHandle gpu = node.gpu(0);
    var first = node.nvml.createEventSet();
    var second = node.nvml.createEventSet();
    assertThat(node.nvml.supportedEventTypes(gpu) & EventData.XID_CRITICAL_ERROR).isNotZero();
    node.nvml.registerEvents(gpu, EventData.XID_CRITICAL_ERROR, first);
    node.nvml.registerEvents(gpu, EventData.XID_CRITICAL_ERROR, second);

    node.sim.require("xid", "--gpu", "0", "--xid", "79");

    for (var set : List.of(first, second)) {
      EventData event = node.nvml.waitForEvent(set, Duration.ofSeconds(5)).orElseThrow();
      assertThat(event.isXid()).isTrue();
      assertThat(event.eventData()).isEqualTo(79);
      assertThat(event.gpuInstanceId()).isEqualTo(ProcessInfo.NO_INSTANCE);
      assertThat(node.nvml.index(event.device())).isZero();
      assertThat(node.nvml.waitForEvent(set, Duration.ofMillis(50))).isEmpty();
    }
    node.nvml.freeEventSet(first);
    node.nvml.freeEventSet(second);
  }

  @Test
  void theStateFileOutlivesTheProcessThatWroteIt(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("node.state");
    String gpuUuid;
    int giId;
    SimulatedNvml writer = SimulatedNvml.extract(dir);
    writer.require("state", state.toString());
    writer.init("A30");
    try (Nvml nvml =
        FfmNvml.open(NvmlLibrary.load(writer.libraryPath().toString()), NvmlCallObserver.NONE)) {
      DeviceHandle gpu = nvml.deviceByIndex(0);
      gpuUuid = nvml.uuid(gpu);
      nvml.setMigMode(gpu, true);
      var profile = nvml.gpuInstanceProfiles(gpu).getFirst();
      var at = nvml.gpuInstancePossiblePlacements(gpu, profile.id()).getFirst();
      giId = nvml.gpuInstanceInfo(nvml.createGpuInstance(gpu, profile.id(), at)).id();
    }

    // another copy of the library stands for a restarted daemon
    SimulatedNvml reader = SimulatedNvml.extract(dir);
    reader.require("state", state.toString());
    try (Nvml nvml =
        FfmNvml.open(NvmlLibrary.load(reader.libraryPath().toString()), NvmlCallObserver.NONE)) {
      DeviceHandle gpu = nvml.deviceByIndex(0);
      assertThat(nvml.uuid(gpu)).isEqualTo(gpuUuid);
      assertThat(nvml.migMode(gpu).current()).isTrue();
      assertThat(nvml.gpuInstanceInfo(nvml.gpuInstanceById(gpu, giId)).id()).isEqualTo(giId);
    }

    // and so does a separate process: the nvml-sim command
    String status = runCli(reader.cliPath(), "--state", state.toString(), "status", "-o", "json");
    assertThat(status).contains(gpuUuid).contains("\"id\": " + giId);
  }

  @Test
  void aKillFaultPerformsTheCallThenKillsTheProcess(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("kill.state");
    assertThat(
            KillProbe.run(dir, "A100-SXM4-40GB", "nvmlDeviceCreateGpuInstanceWithPlacement#2=KILL"))
        .as(KillProbe.log(dir))
        .isEqualTo(137);

    String status =
        runCli(
            SimulatedNvml.extract(dir).cliPath(),
            "--state",
            state.toString(),
            "status",
            "-o",
            "json");
    assertThat(status.split("\"profileId\"", -1))
        .as("both GPU instances exist: the killed call was performed first")
        .hasSize(3);
  }

  private static String runCli(Path cli, String... args) throws IOException, InterruptedException {
    var command = new java.util.ArrayList<String>();
    command.add(cli.toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }
}
