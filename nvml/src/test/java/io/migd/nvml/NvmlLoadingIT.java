package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.nvml.ffm.NvmlLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading NVML fails once, with the exact remedy, when the library or native access is missing. */
class NvmlLoadingIT {
  @Test
  void aMissingLibraryNamesThePathAndTheSetting() {
    assertThatThrownBy(() -> NvmlLibrary.load("/nonexistent/libnvidia-ml.so.1"))
        .isInstanceOf(NvmlLoadException.class)
        .hasMessageContaining("/nonexistent/libnvidia-ml.so.1")
        .hasMessageContaining("MIGD_NVML_LIBRARY")
        .hasMessageContaining("--simulate");
    assertThatThrownBy(() -> NvmlLibrary.load("libnvidia-ml-not-here.so.1"))
        .isInstanceOf(NvmlLoadException.class)
        .hasMessageContaining("libnvidia-ml-not-here.so.1")
        .hasMessageContaining("migd.nvml.library");
  }

  @Test
  void withoutNativeAccessLoadingFailsWithTheFlagToAdd(@TempDir Path dir) throws Exception {
    var java = ProcessHandle.current().info().command().orElseThrow();
    Process p =
        new ProcessBuilder(
                java, "-cp", System.getProperty("java.class.path"), LoadProbe.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = Files.readString(dir.resolve("out.txt"));
    assertThat(p.exitValue()).as(out).isEqualTo(3);
    assertThat(out).contains("--enable-native-access=ALL-UNNAMED");
  }

  /** Loads a library in a JVM started without --enable-native-access. */
  static final class LoadProbe {
    private LoadProbe() {}

    public static void main(String[] args) {
      try {
        NvmlLibrary.load("libnvidia-ml.so.1");
        System.exit(0);
      } catch (NvmlLoadException e) {
        System.out.println(e.getMessage());
        System.exit(3);
      }
    }
  }
}
