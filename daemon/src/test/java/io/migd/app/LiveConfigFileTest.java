package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * New content of the config file counts after two identical reads; an invalid file keeps the last
 * valid configs, says why, and is persisted for a restart on a node.
 */
class LiveConfigFileTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final String NODE = "gpu-node-1";

  @TempDir Path dir;
  private Path file;
  private Path stateDir;

  private static String mine(boolean migEnabled) {
    return """
        version: v1
        mig-configs:
          mine:
            - devices: all
              mig-enabled: %s%s
        """
        .formatted(migEnabled, migEnabled ? "\n      mig-devices: {\"7g.40gb\": 1}" : "");
  }

  @BeforeEach
  void writeFile() throws Exception {
    file = Files.writeString(dir.resolve("configs.yaml"), mine(false));
    stateDir = Files.createDirectories(dir.resolve("state"));
  }

  @Test
  void actsOnNewContentOnlyOnceTwoReadsAgree() throws Exception {
    var live = LiveConfigFile.start(file.toString(), CATALOG, NODE, stateDir);
    assertThat(live.poll()).as("unchanged").isEmpty();

    Files.writeString(file, mine(true).substring(0, 20));
    assertThat(live.poll()).as("a half-written file, read once").isEmpty();
    Files.writeString(file, mine(true));
    assertThat(live.poll()).as("read once").isEmpty();
    var edit = (LiveConfigFile.Edit.Valid) live.poll().orElseThrow();
    assertThat(migEnabled(edit.before())).isFalse();
    assertThat(migEnabled(edit.after())).isTrue();
    assertThat(migEnabled(live.file())).isTrue();
    assertThat(live.poll()).as("acted on already").isEmpty();
  }

  @Test
  void anInvalidFileKeepsTheLastValidConfigsUntilAFix() throws Exception {
    var live = LiveConfigFile.start(file.toString(), CATALOG, NODE, stateDir);
    Files.writeString(file, mine(true).replace("mig-enabled", "mig-enabld"));
    live.poll();
    assertThat(live.poll()).containsInstanceOf(LiveConfigFile.Edit.Invalid.class);
    assertThat(live.problem())
        .as("names the file, the key and its line")
        .hasValueSatisfying(
            p ->
                assertThat(p)
                    .contains("configs.yaml")
                    .contains("unknown key \"mig-enabld\" (line 5)"));
    assertThat(live.config("mine")).isPresent();

    var restarted = LiveConfigFile.start(file.toString(), CATALOG, NODE, stateDir);
    assertThat(restarted.problem()).isPresent();
    assertThat(restarted.config("mine")).as("persisted last valid content").isPresent();

    Files.writeString(file, mine(true));
    live.poll();
    assertThat(live.poll()).containsInstanceOf(LiveConfigFile.Edit.Valid.class);
    assertThat(live.problem()).isEmpty();
  }

  @Test
  void aMissingFileIsAProblemNotAnEmptyFile() throws Exception {
    var live = LiveConfigFile.start(file.toString(), CATALOG, NODE, stateDir);
    Files.delete(file);
    live.poll();
    assertThat(live.poll()).containsInstanceOf(LiveConfigFile.Edit.Invalid.class);
    assertThat(live.problem()).hasValueSatisfying(p -> assertThat(p).contains("no such file"));
    assertThat(live.config("mine")).isPresent();
  }

  private static boolean migEnabled(MigConfigFile configs) {
    return configs.config("mine").orElseThrow().items().getFirst().migEnabled();
  }
}
