package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DraPluginSettingsTest {

  @Test
  void defaultsToTheKubeletsDirectories() {
    var settings = DraPluginSettings.defaults(DraPluginSettings.DEFAULT_DRIVER);

    assertThat(settings.registrationSocket())
        .isEqualTo(Path.of("/var/lib/kubelet/plugins_registry/gpu.nvidia.com-reg.sock"));
    assertThat(settings.draSocket())
        .isEqualTo(Path.of("/var/lib/kubelet/plugins/gpu.nvidia.com/dra.sock"));
  }

  @Test
  void refusesASocketPathTooLongForAUnixSocket() {
    var deep = Path.of("/tmp", "d".repeat(100));

    assertThatThrownBy(
            () ->
                new DraPluginSettings(
                    "gpu.nvidia.com", deep, Path.of("/tmp/p"), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpu.nvidia.com-reg.sock is longer than 107 bytes");
    assertThatThrownBy(
            () ->
                new DraPluginSettings(
                    "gpu.nvidia.com", Path.of("/tmp/r"), deep.resolve("p"), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dra.sock is longer than 107 bytes");
  }

  @Test
  void refusesADriverNameThatIsNoDnsSubdomain() {
    for (var name : new String[] {"GPU.nvidia.com", "gpu_nvidia", "", "a".repeat(64)}) {
      assertThatThrownBy(() -> DraPluginSettings.defaults(name))
          .as(name)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must be a DNS subdomain");
    }
  }
}
