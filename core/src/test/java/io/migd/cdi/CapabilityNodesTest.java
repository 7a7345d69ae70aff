package io.migd.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CapabilityNodesTest {
  @TempDir Path root;
  private SimulatedProc proc;
  private CapabilityNodes nodes;

  @BeforeEach
  void writeTree() {
    proc =
        SimulatedProc.write(
            root,
            List.of(
                new SimulatedProc.Gpu(0, 8, 7),
                new SimulatedProc.Gpu(3, 4, 4),
                new SimulatedProc.Gpu(1, 0, 0)));
    nodes = new CapabilityNodes(root);
  }

  @Test
  void readsTheCapsMajorByItsExactName() {
    assertThat(nodes.capsMajor()).isEqualTo(SimulatedProc.NVIDIA_CAPS_MAJOR);
  }

  @Test
  void readsGpuAndComputeInstanceNodesFromTheirAccessFiles() {
    assertThat(nodes.gpuInstance(0, 1))
        .isEqualTo(new CapabilityNode(237, 12, 292))
        .extracting(CapabilityNode::path)
        .isEqualTo("/dev/nvidia-caps/nvidia-cap12");
    assertThat(nodes.computeInstance(0, 1, 0)).isEqualTo(new CapabilityNode(237, 13, 292));
    assertThat(nodes.gpuInstance(3, 6).minor()).isEqualTo(SimulatedProc.gpuInstanceMinor(3, 6));
    assertThat(nodes.computeInstance(3, 6, 3).minor())
        .isEqualTo(SimulatedProc.computeInstanceMinor(3, 6, 3));
  }

  @Test
  void everyInstanceIdOfEveryGpuHasItsOwnMinor() {
    var minors =
        List.of(0, 3).stream()
            .flatMap(
                gpu ->
                    IntStream.range(0, gpu == 0 ? 15 : 7)
                        .boxed()
                        .flatMap(
                            gi ->
                                IntStream.range(-1, gpu == 0 ? 7 : 4)
                                    .mapToObj(
                                        ci ->
                                            ci < 0
                                                ? nodes.gpuInstance(gpu, gi).minor()
                                                : nodes.computeInstance(gpu, gi, ci).minor())))
            .toList();
    assertThat(minors).hasSize(15 * 8 + 7 * 5).doesNotHaveDuplicates();
  }

  @Test
  void aMissingAccessFileFailsNamingItsPath() {
    Path access = proc.gpuInstanceAccess(0, 14);
    assertThatThrownBy(() -> nodes.gpuInstance(0, 15))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(access.resolveSibling("../gi15/access").normalize().toString());
    assertThatThrownBy(() -> nodes.gpuInstance(1, 0))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(
            root.resolve("driver/nvidia/capabilities/gpu1/mig/gi0/access").toString());
  }

  @Test
  void anAccessFileWithoutAMinorFailsNamingIt() throws IOException {
    Path access = proc.computeInstanceAccess(0, 2, 1);
    Files.writeString(access, "DeviceFileMode: 292\n");
    assertThatThrownBy(() -> nodes.computeInstance(0, 2, 1))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(access.toString())
        .hasMessageContaining("DeviceFileMinor");
  }

  @Test
  void procDevicesWithoutNvidiaCapsFailsNamingIt() throws IOException {
    Files.writeString(root.resolve("devices"), "Character devices:\n195 nvidia-frontend\n");
    assertThatThrownBy(() -> nodes.gpuInstance(0, 1))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(root.resolve("devices").toString())
        .hasMessageContaining("nvidia-caps");
  }
}
