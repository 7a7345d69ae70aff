package io.migd.app;

import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The config file migd works with: the one given, else one generated from the catalogue. */
public final class ConfigFiles {
  private ConfigFiles() {}

  /** Parses {@code file}, or generates the default configs when it is empty. */
  public static MigConfigFile load(String file, GpuModelCatalog catalog) {
    if (file.isBlank()) {
      return GeneratedConfigs.forModels(catalog.models());
    }
    try {
      return MigConfigParser.parse(Path.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException("reading config file " + file, e);
    }
  }
}
