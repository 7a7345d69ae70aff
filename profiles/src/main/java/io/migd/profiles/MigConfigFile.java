package io.migd.profiles;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A mig-parted config file, format {@code version: v1}: named configs under {@code mig-configs}.
 * Read it with {@link MigConfigParser}, write it with {@link MigConfigWriter}.
 *
 * @param version the format version, always {@link #VERSION}
 * @param configs the named configs, in file order, names unique
 */
public record MigConfigFile(String version, List<MigConfig> configs) {

  /** The only format version migd (and mig-parted) reads. */
  public static final String VERSION = "v1";

  /**
   * Validates and copies.
   *
   * @throws IllegalArgumentException if the version is not {@code v1} or a name repeats
   */
  public MigConfigFile {
    if (!VERSION.equals(version)) {
      throw new IllegalArgumentException("version must be " + VERSION + ", got " + version);
    }
    configs = List.copyOf(configs);
    var names = new HashSet<String>();
    for (var config : configs) {
      if (!names.add(config.name())) {
        throw new IllegalArgumentException("config \"" + config.name() + "\" appears twice");
      }
    }
  }

  /**
   * A {@code v1} file with these configs.
   *
   * @param configs the configs, in order
   * @return the file
   */
  public static MigConfigFile of(List<MigConfig> configs) {
    return new MigConfigFile(VERSION, configs);
  }

  /**
   * The config with this name, as a node label or {@code -c NAME} gives it.
   *
   * @param name the config name, case-sensitive
   * @return the config, or empty if the file has none of that name
   */
  public Optional<MigConfig> config(String name) {
    Objects.requireNonNull(name, "name");
    return configs.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * The config names, in file order.
   *
   * @return the names
   */
  public List<String> configNames() {
    return configs.stream().map(MigConfig::name).toList();
  }
}
