package io.migd.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The GPU spec as migd makes it with {@code nvidia-ctk} (the stand-in, which checks the arguments
 * and writes the toolkit's shape for the simulated GPUs): generated against the driver root as
 * mounted in the container, transformed back to the host's, under migd's vendor.
 */
class GpuCdiSpecIT {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Path HOOK = Path.of("/usr/local/nvidia/toolkit/nvidia-cdi-hook");
  private static final int ONE_G_10GB = 19;

  @TempDir Path dir;
  private Nvml nvml;
  private Path log;
  private GpuCdiSpec.Settings settings;

  @BeforeEach
  void node() throws Exception {
    var sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    Path state = dir.resolve("nvml-state");
    sim.require("state", state.toString());
    sim.init("H100-SXM5-80GB,T4");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    log = dir.resolve("nvidia-ctk.log");
    settings =
        new GpuCdiSpec.Settings(
            List.of(
                "env",
                "NVML_SIM_STATE=" + state,
                "NVIDIA_CTK_STANDIN_LOG=" + log,
                NvidiaCtkStandIn.beside(sim).toString()),
            dir.resolve("run/cdi"),
            Path.of("/run/nvidia/driver"),
            Files.createDirectories(dir.resolve("driver-root")),
            HOOK,
            Duration.ofSeconds(30));
  }

  @AfterEach
  void close() {
    nvml.close();
  }

  @Test
  void generatesEveryGpuByUuidUnderMigdsKindWithTheHostsPaths() throws Exception {
    var generated = new GpuCdiSpec(settings).generate();

    JsonNode written = YAML.readTree(Files.readString(settings.file()));
    assertThat(settings.file().getFileName()).hasToString("k8s.migd.io-gpu.yaml");
    assertThat(written.get("kind").asString()).isEqualTo("k8s.migd.io/gpu");
    assertThat(generated.deviceNames())
        .containsExactly(nvml.uuid(nvml.deviceByIndex(0)), nvml.uuid(nvml.deviceByIndex(1)), "all");
    assertThat(Files.readString(settings.file()))
        .as("every host path is the host's driver root, never the container's mount")
        .doesNotContain(settings.containerDriverRoot().toString())
        .contains("hostPath: /run/nvidia/driver/usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05")
        .contains("path: " + HOOK);
    assertThat(generated.commonEdits()).isEqualTo(written.get("containerEdits"));
    assertThat(Files.readAllLines(log))
        .as("the stand-in's log, its temporary directory as TMP")
        .map(line -> line.replaceAll("/\\S*/migd-cdi-\\d+/", "TMP/"))
        .containsExactly(
            "cdi generate --output=TMP/generated.yaml --format=yaml --driver-root="
                + settings.containerDriverRoot()
                + " --device-name-strategy=uuid --vendor=k8s.migd.io --class=gpu"
                + " --nvidia-cdi-hook-path="
                + HOOK,
            "cdi transform root --from="
                + settings.containerDriverRoot()
                + " --to=/run/nvidia/driver --input=TMP/generated.yaml --output=TMP/host.yaml");
  }

  @Test
  void aReshapeIsInTheNextSpecAndAFailureKeepsTheLastOne() throws Exception {
    var spec = new GpuCdiSpec(settings);
    spec.generate();
    var h100 = nvml.deviceByIndex(0);
    nvml.setMigMode(h100, true);
    var gi = nvml.createGpuInstance(h100, ONE_G_10GB, new InstancePlacement(3, 1));
    int ciProfile =
        nvml.computeInstanceProfiles(gi).stream()
            .filter(p -> p.sliceCount() == 1)
            .findFirst()
            .orElseThrow()
            .id();
    nvml.createComputeInstance(gi, ciProfile, new InstancePlacement(0, 1));
    String mig = nvml.uuid(nvml.migDeviceByIndex(h100, 0).orElseThrow());

    assertThat(spec.generate().deviceNames()).contains(mig);
    assertThat(Files.readString(settings.file())).contains("name: " + mig, "/dev/nvidia-caps/");

    var failing =
        new GpuCdiSpec(
            new GpuCdiSpec.Settings(
                List.of("sh", "-c", "echo 'failed to initialize NVML: Unknown Error' >&2; exit 1"),
                settings.cdiDir(),
                settings.driverRoot(),
                settings.containerDriverRoot(),
                HOOK,
                Duration.ofSeconds(30)));
    assertThatThrownBy(failing::generate)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed to initialize NVML: Unknown Error");
    assertThatThrownBy(failing::current)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed to initialize NVML: Unknown Error");
    assertThat(Files.readString(settings.file())).contains("name: " + mig);
  }

  @Test
  void refusesAMissingDriverRootOrHookNamingTheProperty() {
    var noRoot =
        new GpuCdiSpec.Settings(
            settings.nvidiaCtk(),
            settings.cdiDir(),
            settings.driverRoot(),
            dir.resolve("not-mounted"),
            HOOK,
            Duration.ofSeconds(1));
    var noHook =
        new GpuCdiSpec.Settings(
            settings.nvidiaCtk(),
            settings.cdiDir(),
            settings.driverRoot(),
            settings.containerDriverRoot(),
            dir.resolve("no-hook"),
            Duration.ofSeconds(1));

    assertThatThrownBy(() -> GpuCdiSpec.check(noRoot))
        .isInstanceOf(CdiSetupException.class)
        .hasMessageContaining(dir.resolve("not-mounted").toString())
        .hasMessageContaining("migd.cdi.container-driver-root");
    assertThatThrownBy(() -> GpuCdiSpec.check(noHook))
        .isInstanceOf(CdiSetupException.class)
        .hasMessageContaining(dir.resolve("no-hook").toString())
        .hasMessageContaining("migd.cdi.hook-path");
  }
}
