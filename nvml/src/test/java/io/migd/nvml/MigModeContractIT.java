package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The MIG mode paths of the simulated driver, as {@code activationStatus} and modes show them. */
class MigModeContractIT {
  private static SimNode node;

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private DeviceHandle fresh(String model) {
    node.reset(model);
    return node.gpu(0);
  }

  @Test
  void anIdleGpuChangesModeAtOnce() {
    DeviceHandle gpu = fresh("A100-SXM4-40GB");
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(false, false));
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.SUCCESS);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(true, true));
    assertThat(node.nvml.maxMigDeviceCount(gpu)).isEqualTo(7);
  }

  @Test
  void aHolderKeepsTheChangePendingOnAmpere() {
    DeviceHandle gpu = fresh("A100-SXM4-40GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "4242");
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.IN_USE);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(false, true));
    assertThat(node.nvml.computeProcesses(gpu)).as("holders are not compute processes").isEmpty();

    assertThat(node.sim.control("reset", "--gpu", "0").exitStatus())
        .as("reset is refused while a holder is on the GPU")
        .isEqualTo(1);
    node.sim.require("detach", "--pid", "4242");
    node.sim.require("reset", "--gpu", "0");
    assertThat(node.nvml.migMode(node.gpu(0))).isEqualTo(new MigMode(true, true));
  }

  @Test
  void aHolderDoesNotBlockHopper() {
    DeviceHandle gpu = fresh("H100-SXM5-80GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "4242");
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.SUCCESS);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(true, true));
  }

  @Test
  void aComputeProcessKeepsTheChangePendingAndAskingForTheCurrentModeCancelsIt() {
    DeviceHandle gpu = fresh("H100-SXM5-80GB");
    node.sim.require("attach", "--gpu", "0", "--pid", "777", "--mem", "1024");
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.IN_USE);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(false, true));
    assertThat(node.nvml.computeProcesses(gpu)).extracting(ProcessInfo::pid).containsExactly(777);

    assertThat(node.nvml.setMigMode(gpu, false)).isEqualTo(NvmlReturn.SUCCESS);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(false, false));
  }

  @Test
  void passthroughNeedsAReboot() {
    DeviceHandle gpu = fresh("A100-SXM4-80GB");
    node.sim.require("passthrough", "--gpu", "0", "on");
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.RESET_REQUIRED);
    assertThat(node.nvml.migMode(gpu)).isEqualTo(new MigMode(false, true));
    node.sim.require("reset", "--gpu", "0");
    assertThat(node.nvml.migMode(node.gpu(0))).isEqualTo(new MigMode(true, true));
  }

  @Test
  void aResetWhileTheSessionIsReleasedAppliesThePendingModeAndStalesOldHandles() {
    DeviceHandle gpu = fresh("A100-SXM4-40GB");
    node.sim.require("attach", "--gpu", "0", "--holder", "--pid", "4242");
    assertThat(node.nvml.setMigMode(gpu, true)).isEqualTo(NvmlReturn.IN_USE);
    node.sim.require("detach", "--pid", "4242");

    var reset = node.nvml.whileReleased(() -> node.sim.control("reset", "--gpu", "0"));

    assertThat(reset.succeeded()).as(reset.output()).isTrue();
    assertThat(node.nvml.migMode(node.gpu(0))).isEqualTo(new MigMode(true, true));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> node.nvml.uuid(gpu))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT));
  }

  @Test
  void disablingMigDropsEveryInstance() {
    DeviceHandle gpu = fresh("B200");
    node.nvml.setMigMode(gpu, true);
    var profile = node.nvml.gpuInstanceProfiles(gpu).getFirst();
    node.nvml.createGpuInstance(
        gpu, profile.id(), node.nvml.gpuInstancePossiblePlacements(gpu, profile.id()).getFirst());
    assertThat(node.nvml.setMigMode(gpu, false)).isEqualTo(NvmlReturn.SUCCESS);
    node.nvml.setMigMode(gpu, true);
    assertThat(node.nvml.gpuInstances(gpu, profile.id())).isEmpty();
  }
}
