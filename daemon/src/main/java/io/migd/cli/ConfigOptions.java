package io.migd.cli;

import io.migd.app.ConfigFiles;
import io.migd.app.MigdProperties;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code -f FILE -c NAME}: which config of which file a command works with. */
final class ConfigOptions {
  @Option(
      names = {"-f", "--config-file"},
      paramLabel = "FILE",
      description =
          "mig-parted v1 config file (default: migd.config-file, else one generated from the"
              + " GPU catalogue).")
  Path file;

  @Option(
      names = {"-c", "--selected-config"},
      paramLabel = "NAME",
      description = "Config of the file to use; may be left out when the file has one.")
  String name;

  /** The file: {@code -f}, else {@code migd.config-file}, else generated. */
  MigConfigFile load(MigdProperties properties, GpuModelCatalog catalog) {
    return ConfigFiles.load(file != null ? file.toString() : properties.configFile(), catalog);
  }

  /** The selected config; a usage error when it cannot be chosen. */
  MigConfig select(MigConfigFile configs, MigdProperties properties) {
    String chosen = name != null ? name : properties.config();
    if (chosen == null || chosen.isBlank()) {
      if (configs.configs().size() == 1) {
        return configs.configs().getFirst();
      }
      throw new ConfigFileException(
          "choose a config with -c NAME; the file has " + configs.configNames(), null);
    }
    return configs
        .config(chosen)
        .orElseThrow(
            () ->
                new ConfigFileException(
                    "config \"" + chosen + "\" is not in the file; it has " + configs.configNames(),
                    null));
  }
}
