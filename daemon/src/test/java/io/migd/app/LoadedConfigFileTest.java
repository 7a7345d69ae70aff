package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A config file that cannot be parsed stops a standalone start, and fails a node's GPUs instead.
 */
class LoadedConfigFileTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  @TempDir Path dir;

  @Test
  void aGoodFileHasNoProblem() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("configs.yaml"),
            """
            version: v1
            mig-configs:
              all-disabled:
                - devices: all
                  mig-enabled: false
            """);
    var loaded = LoadedConfigFile.load(file.toString(), CATALOG, "");
    assertThat(loaded.problem()).isEmpty();
    assertThat(loaded.config("all-disabled")).isPresent();
  }

  @Test
  void aBrokenFileStopsAStandaloneStart() throws Exception {
    Path file = Files.writeString(dir.resolve("configs.yaml"), "version: v1\nmig-configs: [");
    assertThatThrownBy(() -> LoadedConfigFile.load(file.toString(), CATALOG, " "))
        .isInstanceOf(ConfigFileException.class);
  }

  @Test
  void onANodeABrokenFileIsAOneLineProblemAndNoConfig() throws Exception {
    Path file = Files.writeString(dir.resolve("configs.yaml"), "version: v1\nmig-configs: [");
    var loaded = LoadedConfigFile.load(file.toString(), CATALOG, "gpu-node-1");
    assertThat(loaded.config("all-disabled")).isEmpty();
    assertThat(loaded.problem()).hasValueSatisfying(p -> assertThat(p).doesNotContain("\n"));
    assertThat(loaded.problem().orElseThrow()).contains("configs.yaml").contains("not valid YAML");
  }
}
