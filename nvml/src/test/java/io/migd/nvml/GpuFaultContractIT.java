package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults aimed at one GPU ({@code function@I#N=CODE}): they hit only calls on GPU I (its MIG
 * devices and instances included) and N counts that function's calls on that GPU.
 */
class GpuFaultContractIT {
  private static SimNode node;
  private static DeviceHandle gpu0;
  private static DeviceHandle gpu1;
  private static DeviceHandle mig0;
  private static DeviceHandle mig1;
  private static GpuInstanceHandle gi0;
  private static GpuInstanceHandle gi1;

  @BeforeAll
  static void start() {
    node = SimNode.start("H100-SXM5-80GB,H100-SXM5-80GB");
    Nvml nvml = node.nvml;
    gpu0 = node.gpu(0);
    gpu1 = node.gpu(1);
    gi0 = migWithOneInstance(gpu0);
    gi1 = migWithOneInstance(gpu1);
    mig0 = nvml.migDeviceByIndex(gpu0, 0).orElseThrow();
    mig1 = nvml.migDeviceByIndex(gpu1, 0).orElseThrow();
  }

  private static GpuInstanceHandle migWithOneInstance(DeviceHandle gpu) {
    Nvml nvml = node.nvml;
    nvml.setMigMode(gpu, true);
    var gi = nvml.createGpuInstance(gpu, 19, new InstancePlacement(0, 1));
    nvml.createComputeInstance(gi, 0, new InstancePlacement(0, 1));
    return gi;
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @BeforeEach
  void clearFaults() {
    node.faults("");
  }

  private static NvmlReturn codeOf(Supplier<?> call) {
    try {
      call.get();
      return NvmlReturn.SUCCESS;
    } catch (NvmlException e) {
      return e.code();
    }
  }

  @Test
  void aFaultOnOneGpuLeavesTheOtherAlone() {
    Nvml nvml = node.nvml;
    node.faults("nvmlDeviceGetUUID@1=NVML_ERROR_GPU_IS_LOST");
    for (int i = 0; i < 3; i++) {
      assertThat(nvml.uuid(gpu0)).startsWith("GPU-");
      assertThat(nvml.uuid(mig0)).startsWith("MIG-");
      assertThat(codeOf(() -> nvml.uuid(gpu1))).isEqualTo(NvmlReturn.GPU_IS_LOST);
      assertThat(codeOf(() -> nvml.uuid(mig1)))
          .as("a MIG device of GPU 1 is on GPU 1")
          .isEqualTo(NvmlReturn.GPU_IS_LOST);
    }
  }

  @Test
  void instancesCountOnTheirGpu() {
    Nvml nvml = node.nvml;
    node.faults("nvmlGpuInstanceGetInfo@0=NVML_ERROR_UNKNOWN");
    assertThat(codeOf(() -> nvml.gpuInstanceInfo(gi0))).isEqualTo(NvmlReturn.UNKNOWN);
    assertThat(nvml.gpuInstanceInfo(gi1).id()).isEqualTo(7);
    node.faults("nvmlDeviceCreateGpuInstanceWithPlacement@1#1=INSUFFICIENT_RESOURCES");
    assertThatThrownBy(() -> nvml.createGpuInstance(gpu1, 19, new InstancePlacement(1, 1)))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> assertThat(e.code()).isEqualTo(NvmlReturn.INSUFFICIENT_RESOURCES));
    assertThat(nvml.gpuInstances(gpu1, 19)).as("a faulted create leaves nothing").hasSize(1);
    var made = nvml.createGpuInstance(gpu0, 19, new InstancePlacement(1, 1));
    nvml.destroyGpuInstance(made);
  }

  @Test
  void theCallNumberCountsCallsOnThatGpu() {
    Nvml nvml = node.nvml;
    node.faults("nvmlDeviceGetName@1#2=NVML_ERROR_UNKNOWN");
    for (int i = 0; i < 3; i++) {
      assertThat(codeOf(() -> nvml.name(gpu0))).isEqualTo(NvmlReturn.SUCCESS);
    }
    assertThat(codeOf(() -> nvml.name(gpu1))).isEqualTo(NvmlReturn.SUCCESS);
    assertThat(codeOf(() -> nvml.name(mig0))).isEqualTo(NvmlReturn.SUCCESS);
    assertThat(codeOf(() -> nvml.name(mig1)))
        .as("the second call on GPU 1, through its MIG device")
        .isEqualTo(NvmlReturn.UNKNOWN);
    assertThat(codeOf(() -> nvml.name(gpu1))).isEqualTo(NvmlReturn.SUCCESS);
  }

  @Test
  void severalEntriesForOneFunctionEachCountOnTheirOwn() {
    Nvml nvml = node.nvml;
    node.faults(
        "nvmlDeviceGetName@0#2=IN_USE;nvmlDeviceGetName@1#1=NO_PERMISSION;"
            + "nvmlDeviceGetName#5=TIMEOUT");
    assertThat(codeOf(() -> nvml.name(gpu1))).isEqualTo(NvmlReturn.NO_PERMISSION); // 1st on 1
    assertThat(codeOf(() -> nvml.name(gpu0))).isEqualTo(NvmlReturn.SUCCESS); // 1st on 0
    assertThat(codeOf(() -> nvml.name(gpu0))).isEqualTo(NvmlReturn.IN_USE); // 2nd on 0
    assertThat(codeOf(() -> nvml.name(gpu0))).isEqualTo(NvmlReturn.SUCCESS); // 3rd on 0
    assertThat(codeOf(() -> nvml.name(gpu1))).isEqualTo(NvmlReturn.TIMEOUT); // 5th overall
    assertThat(codeOf(() -> nvml.name(gpu1))).isEqualTo(NvmlReturn.SUCCESS);
  }

  @Test
  void handleByIndexCountsOnTheIndexedGpu() {
    Nvml nvml = node.nvml;
    node.faults("nvmlDeviceGetHandleByIndex_v2@1=GPU_IS_LOST");
    assertThat(nvml.deviceByIndex(0)).isEqualTo(gpu0);
    assertThat(codeOf(() -> nvml.deviceByIndex(1))).isEqualTo(NvmlReturn.GPU_IS_LOST);
  }

  @Test
  void aBadGpuIndexRejectsTheSpec() {
    assertThat(node.sim.control("faults", "nvmlDeviceGetName@16=UNKNOWN").exitStatus())
        .isEqualTo(2);
    assertThat(node.sim.control("faults", "nvmlDeviceGetName@x#1=UNKNOWN").exitStatus())
        .isEqualTo(2);
    assertThat(node.sim.control("faults", "nvmlDeviceGetName#1@0=UNKNOWN").exitStatus())
        .isEqualTo(2);
  }

  @Test
  void theEnvironmentTakesGpuFaultsToo(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("kill.state");
    assertThat(
            KillProbe.run(
                dir,
                "A100-SXM4-40GB,A100-SXM4-40GB",
                "nvmlDeviceCreateGpuInstanceWithPlacement@1#2=KILL"))
        .as(KillProbe.log(dir))
        .isEqualTo(137);

    var cli =
        new ProcessBuilder(
                SimulatedNvml.extract(dir).cliPath().toString(),
                "--state",
                state.toString(),
                "status",
                "-o",
                "json")
            .redirectErrorStream(true)
            .start();
    String status = new String(cli.getInputStream().readAllBytes());
    assertThat(cli.waitFor()).as(status).isZero();
    assertThat(status.split("\"profileId\"", -1))
        .as("two GPU instances on each GPU: the kill came with the second create on GPU 1")
        .hasSize(5);
  }
}
