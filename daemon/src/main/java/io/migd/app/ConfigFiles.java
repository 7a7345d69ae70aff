package io.migd.app;

import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The config file migd works with: the one given, else one generated from the catalogue. */
public final class ConfigFiles {
  private ConfigFiles() {}

  /**
   * Parses {@code file}, or generates the default configs when it is empty.
   *
   * @throws ConfigFileException if the file is missing, unreadable or not a valid config file
   */
  public static MigConfigFile load(String file, GpuModelCatalog catalog) {
    if (file.isBlank()) {
      return GeneratedConfigs.forModels(catalog.models());
    }
    Path path = Path.of(file);
    if (Files.isDirectory(path)) {
      throw unreadable(file, "it is a directory");
    }
    try {
      return MigConfigParser.parse(path);
    } catch (NoSuchFileException e) {
      throw unreadable(file, "no such file");
    } catch (AccessDeniedException e) {
      throw unreadable(file, "permission denied");
    } catch (IOException e) {
      throw unreadable(file, e.toString());
    }
  }

  private static ConfigFileException unreadable(String file, String why) {
    return new ConfigFileException("cannot read config file " + file + ": " + why, null);
  }
}
