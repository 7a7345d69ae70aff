package io.migd.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.migd.claims.CdiDevice;
import io.migd.sim.SimulatedProc;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class ClaimCdiSpecsTest {
  private static final String CLAIM = "0b6e3f7a-5d1c-4c2e-9f80-1a2b3c4d5e6f";
  private static final String GPU_UUID = "GPU-7d66dbdd-c6d9-15a4-a794-61ea540d890b";
  private static final YAMLMapper YAML = new YAMLMapper();
  // the common edits nvidia-ctk cdi generate writes (toolkit 1.18), transformed to the host's root
  private static final JsonNode GENERATED =
      YAML.readTree(
          """
          deviceNodes:
          - path: /dev/nvidia-modeset
          - path: /dev/nvidiactl
            hostPath: /run/nvidia/driver/dev/nvidiactl
          hooks:
          - hookName: createContainer
            path: /usr/local/nvidia/toolkit/nvidia-cdi-hook
            args: [nvidia-cdi-hook, update-ldcache, --folder, /usr/lib/x86_64-linux-gnu]
          mounts:
          - hostPath: /run/nvidia/driver/usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05
            containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05
            options: [ro, nosuid, nodev, rbind, rprivate]
          """);

  @TempDir Path proc;
  @TempDir Path cdi;
  private ClaimCdiSpecs specs;

  @BeforeEach
  void writeProc() {
    SimulatedProc.write(
        proc, List.of(new SimulatedProc.Gpu(0, 8, 7), new SimulatedProc.Gpu(2, 8, 7)));
    specs =
        new ClaimCdiSpecs(cdi.resolve("run/cdi"), new CapabilityNodes(proc), GENERATED::deepCopy);
  }

  private JsonNode spec() throws Exception {
    Path file = cdi.resolve("run/cdi/k8s.migd.io-claim_" + CLAIM + ".yaml");
    assertThat(file).exists();
    return YAML.readTree(Files.readString(file));
  }

  private static List<JsonNode> nodes(JsonNode edits) {
    return edits.get("containerEdits").get("deviceNodes").valueStream().toList();
  }

  @Test
  void aWholeGpuGetsItsDeviceNodeTheControlNodesAndTheGeneratedCommonEditsUnderOneId()
      throws Exception {
    var ids = specs.write(CLAIM, List.of(CdiDevice.wholeGpu("gpu-2", 2, GPU_UUID)));

    assertThat(ids).containsExactly("k8s.migd.io/claim=" + CLAIM + "-gpu-2");
    var spec = spec();
    assertThat(spec.get("cdiVersion").asString()).isEqualTo("0.5.0");
    assertThat(spec.get("kind").asString()).isEqualTo("k8s.migd.io/claim");
    assertThat(nodes(spec))
        .extracting(n -> n.get("path").asString(), n -> n.path("hostPath").asString(null))
        .containsExactly(
            tuple("/dev/nvidia-modeset", null),
            tuple("/dev/nvidiactl", "/run/nvidia/driver/dev/nvidiactl"),
            tuple("/dev/nvidia-uvm", null),
            tuple("/dev/nvidia-uvm-tools", null));
    var edits = spec.get("containerEdits");
    assertThat(edits.get("mounts")).isEqualTo(GENERATED.get("mounts"));
    assertThat(edits.get("hooks")).isEqualTo(GENERATED.get("hooks"));
    assertThat(spec.get("devices").valueStream().toList())
        .singleElement()
        .satisfies(
            device -> {
              assertThat(device.get("name").asString()).isEqualTo(CLAIM + "-gpu-2");
              assertThat(nodes(device))
                  .extracting(n -> n.get("path").asString())
                  .containsExactly("/dev/nvidia2");
            });
    assertThat(spec.toString()).doesNotContain("MIG-").doesNotContain("NVIDIA_VISIBLE_DEVICES");
  }

  @Test
  void aMigDeviceGetsItsGpuAndTheCapabilityNodesOfItsInstances() throws Exception {
    var mig = CdiDevice.mig("gpu-2-mig-1g10gb-19-3", 2, GPU_UUID, 9, 0);
    var whole = CdiDevice.wholeGpu("gpu-0", 0, "GPU-other");

    var ids = specs.write(CLAIM, List.of(mig, whole));

    assertThat(ids)
        .containsExactly(
            "k8s.migd.io/claim=" + CLAIM + "-gpu-2-mig-1g10gb-19-3",
            "k8s.migd.io/claim=" + CLAIM + "-gpu-0");
    var devices = spec().get("devices").valueStream().toList();
    assertThat(devices)
        .extracting(d -> d.get("name").asString())
        .containsExactly(CLAIM + "-gpu-2-mig-1g10gb-19-3", CLAIM + "-gpu-0");
    int gi = SimulatedProc.gpuInstanceMinor(2, 9);
    int ci = SimulatedProc.computeInstanceMinor(2, 9, 0);
    assertThat(nodes(devices.getFirst()))
        .extracting(
            n -> n.get("path").asString(),
            n -> n.path("type").asString(null),
            n -> n.path("major").asInt(-1),
            n -> n.path("minor").asInt(-1),
            n -> n.path("fileMode").asInt(-1))
        .containsExactly(
            tuple("/dev/nvidia2", null, -1, -1, -1),
            tuple("/dev/nvidia-caps/nvidia-cap" + gi, "c", 237, gi, 292),
            tuple("/dev/nvidia-caps/nvidia-cap" + ci, "c", 237, ci, 292));
  }

  @Test
  void writingAgainReplacesTheSpecAndRemoveDeletesIt() throws Exception {
    specs.write(CLAIM, List.of(CdiDevice.wholeGpu("gpu-2", 2, GPU_UUID)));
    specs.write(CLAIM, List.of(CdiDevice.wholeGpu("gpu-0", 0, GPU_UUID)));

    assertThat(spec().get("devices").valueStream().map(d -> d.get("name").asString()))
        .containsExactly(CLAIM + "-gpu-0");
    assertThat(cdi.resolve("run/cdi")).isDirectoryNotContaining("glob:**.tmp");

    specs.remove(CLAIM);
    specs.remove(CLAIM);

    assertThat(cdi.resolve("run/cdi")).isEmptyDirectory();
  }

  @Test
  void aMissingAccessFileFailsNamingItAndWritesNothing() {
    var mig = CdiDevice.mig("gpu-5-mig-1g10gb-19-0", 5, GPU_UUID, 13, 0);

    assertThatThrownBy(() -> specs.write(CLAIM, List.of(mig)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(
            proc.resolve("driver/nvidia/capabilities/gpu5/mig/gi13/access").toString());
    assertThat(cdi.resolve("run/cdi/k8s.migd.io-claim_" + CLAIM + ".yaml")).doesNotExist();
  }

  @Test
  void withoutAGeneratedGpuSpecFailsSayingWhyAndWritesNothing() {
    var without =
        new ClaimCdiSpecs(
            cdi.resolve("run/cdi"),
            new CapabilityNodes(proc),
            () -> {
              throw new IllegalStateException("no CDI spec of the GPUs: nvidia-ctk exited 1");
            });

    assertThatThrownBy(
            () -> without.write(CLAIM, List.of(CdiDevice.wholeGpu("gpu-2", 2, GPU_UUID))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nvidia-ctk exited 1");
    assertThat(cdi.resolve("run/cdi/k8s.migd.io-claim_" + CLAIM + ".yaml")).doesNotExist();
  }

  @Test
  void refusesAClaimUidThatCannotNameAFile() {
    assertThatThrownBy(() -> specs.write("../x", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("../x");
  }
}
