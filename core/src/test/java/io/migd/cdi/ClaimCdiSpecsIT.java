package io.migd.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.CdiDevice;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDI spec of a MIG instance the simulated NVML created, on a node whose device minors are not
 * its NVML indexes: the capability nodes are those of {@code gpu<minor>} in the proc tree, the GPU
 * node {@code /dev/nvidia<minor>}, both by the minor NVML reports; the driver's libraries and hooks
 * are those of the GPU spec {@code nvidia-ctk} generated (the stand-in).
 */
class ClaimCdiSpecsIT {
  private static final String CLAIM = "5c3f1e0a-8b7d-4f2a-9e61-0d1c2b3a4f5e";
  private static final int ONE_G_10GB = 19;

  @TempDir Path dir;
  private SimulatedNvml sim;
  private Nvml nvml;
  private Path state;

  @BeforeEach
  void start() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    state = dir.resolve("nvml-state");
    sim.require("state", state.toString());
    sim.init("A100-SXM4-40GB,H100-SXM5-80GB");
    sim.require("minor", "--gpu", "0", "5");
    sim.require("minor", "--gpu", "1", "0");
    sim.require("minor", "--gpu", "0", "1");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
  }

  @AfterEach
  void stop() {
    nvml.close();
  }

  @Test
  void namesTheCapabilityNodesOfTheInstanceByTheGpusMinor() throws Exception {
    DeviceHandle h100 = nvml.deviceByIndex(1);
    assertThat(nvml.setMigMode(h100, true)).isEqualTo(NvmlReturn.SUCCESS);
    var gi = nvml.createGpuInstance(h100, ONE_G_10GB, new InstancePlacement(3, 1));
    int ciProfile =
        nvml.computeInstanceProfiles(gi).stream()
            .filter(p -> p.sliceCount() == 1)
            .findFirst()
            .orElseThrow()
            .id();
    var ci = nvml.createComputeInstance(gi, ciProfile, new InstancePlacement(0, 1));
    int minor = nvml.minorNumber(h100);
    int giId = nvml.gpuInstanceInfo(gi).id();
    int ciId = nvml.computeInstanceInfo(ci).id();
    var gpus =
        IntStream.range(0, nvml.deviceCount())
            .mapToObj(i -> new SimulatedProc.Gpu(nvml.minorNumber(nvml.deviceByIndex(i)), 8, 7))
            .toList();
    SimulatedProc.write(dir.resolve("proc"), gpus);
    var gpuSpec =
        new GpuCdiSpec(
            new GpuCdiSpec.Settings(
                List.of("env", "NVML_SIM_STATE=" + state, NvidiaCtkStandIn.beside(sim).toString()),
                dir.resolve("cdi"),
                Path.of("/"),
                Files.createDirectories(dir.resolve("driver-root")),
                Path.of("/usr/bin/nvidia-cdi-hook"),
                Duration.ofSeconds(30)));
    gpuSpec.generate();
    var specs =
        new ClaimCdiSpecs(dir.resolve("cdi"), new CapabilityNodes(dir.resolve("proc")), gpuSpec);

    var ids =
        specs.write(
            CLAIM,
            List.of(CdiDevice.mig("gpu-0-mig-1g10gb-19-3", minor, nvml.uuid(h100), giId, ciId)));

    assertThat(minor).isZero();
    assertThat(giId).isEqualTo(10);
    assertThat(ids).containsExactly("k8s.migd.io/claim=" + CLAIM + "-gpu-0-mig-1g10gb-19-3");
    String spec = Files.readString(specs.specFile(CLAIM));
    assertThat(spec)
        .contains("/dev/nvidia0")
        .as("the generated GPU spec's libraries and hooks, at the host's paths")
        .contains("hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05")
        .contains("path: /usr/bin/nvidia-cdi-hook")
        .doesNotContain("/dev/nvidia1\n")
        .contains("/dev/nvidia-caps/nvidia-cap" + SimulatedProc.gpuInstanceMinor(0, giId))
        .contains(
            "/dev/nvidia-caps/nvidia-cap" + SimulatedProc.computeInstanceMinor(0, giId, ciId));
  }
}
