package io.migd.app;

import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.ConfigLookup;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The config file as read at start, and what a file that cannot be read or parsed means. Standalone
 * it stops the start (exit 2). On a Kubernetes node migd starts anyway, so the kubelet keeps its
 * device plugin, and every GPU a named config would select ends {@code failed} with the file's
 * problem, which the Node's state shows.
 *
 * @param problem empty, or why the file yields no config, on one line
 */
record LoadedConfigFile(MigConfigFile file, Optional<String> problem) implements ConfigLookup {
  private static final Logger log = LoggerFactory.getLogger(LoadedConfigFile.class);

  @Override
  public Optional<MigConfig> config(String name) {
    return file.config(name);
  }

  /**
   * Reads {@code configFile}; {@code nodeName} is {@code NODE_NAME}, blank when standalone.
   *
   * @throws ConfigFileException standalone, when the file cannot be read or parsed
   */
  static LoadedConfigFile load(String configFile, GpuModelCatalog catalog, String nodeName) {
    try {
      return new LoadedConfigFile(ConfigFiles.load(configFile, catalog), Optional.empty());
    } catch (ConfigFileException e) {
      if (nodeName.isBlank()) {
        throw e;
      }
      log.error(
          "{}; node {} reports it as failed until the file is fixed",
          e.getMessage(),
          nodeName.strip());
      return new LoadedConfigFile(MigConfigFile.of(List.of()), Optional.of(oneLine(e)));
    }
  }

  /** The node's reason is an annotation, and parser messages span several lines. */
  static String oneLine(ConfigFileException e) {
    return e.getMessage().strip().replaceAll("\\s+", " ");
  }
}
