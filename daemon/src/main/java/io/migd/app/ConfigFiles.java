package io.migd.app;

import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
    return parse(Path.of(file), read(Path.of(file)));
  }

  /**
   * The text of {@code file}, following symbolic links (a ConfigMap volume's {@code ..data}).
   *
   * @throws ConfigFileException if the file is missing, a directory or unreadable
   */
  static String read(Path file) {
    if (Files.isDirectory(file)) {
      throw unreadable(file, "it is a directory");
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw unreadable(file, "no such file");
    } catch (AccessDeniedException e) {
      throw unreadable(file, "permission denied");
    } catch (IOException e) {
      throw unreadable(file, e.toString());
    }
  }

  /**
   * Parses {@code text} read from {@code file}; messages name the file by its file name.
   *
   * @throws ConfigFileException if it is not a valid config file
   */
  static MigConfigFile parse(Path file, String text) {
    var name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    return MigConfigParser.parse(text, name);
  }

  private static ConfigFileException unreadable(Path file, String why) {
    return new ConfigFileException("cannot read config file " + file + ": " + why, null);
  }
}
