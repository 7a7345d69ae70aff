package io.migd.app;

import io.migd.devices.MigStrategy;
import io.migd.layout.SharingDefaults;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.deviceplugin.DevicePluginConfig;
import io.migd.profiles.deviceplugin.DevicePluginConfigParser;
import io.migd.profiles.deviceplugin.DevicePluginConfigRead;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVIDIA's device-plugin config of this node (DESIGN section 13): {@code migd.device-plugin-config}
 * names one file, or a directory with one key per config as a ConfigMap volume mounts it; the node
 * label {@code nvidia.com/device-plugin.config} picks the key, {@code
 * migd.device-plugin-config-default} when unlabelled. It is read at start and again on every {@link
 * #poll}, new content counting once two reads agree ({@link SettledReads}); the selected config's
 * warnings are logged once each time it changes. A refused config, a missing key or an unreadable
 * file is the {@link #problem}, which fails the node as a bad config file does.
 */
final class DevicePluginConfigSource {
  /** The node label that picks the key of a config directory, as NVIDIA's GPU Operator uses it. */
  static final String LABEL = "nvidia.com/device-plugin.config";

  private static final Logger log = LoggerFactory.getLogger(DevicePluginConfigSource.class);

  /** One read of the file or directory: the text of each key, or why there is none. */
  sealed interface Contents {
    /** Keyed by file name; a plain file ({@code directory} false) is its only key. */
    record Keys(SortedMap<String, String> texts, boolean directory) implements Contents {
      public Keys {
        texts = new TreeMap<>(texts);
      }
    }

    record Unreadable(String why) implements Contents {}
  }

  /**
   * What the node gets now: the sharing and what of the config is ignored, or why there is none.
   */
  private record Selected(SharingDefaults defaults, List<String> warnings, String problem) {
    Selected(SharingDefaults defaults, String problem) {
      this(defaults, List.of(), problem);
    }
  }

  private final Path path;
  private final String defaultKey;
  private final MigStrategy strategy;
  private final SettledReads<Contents> reads;
  private Contents contents;
  private Optional<String> label = Optional.empty();
  private volatile Selected selected;

  private DevicePluginConfigSource(
      Path path, String defaultKey, MigStrategy strategy, Contents first, Optional<String> label) {
    this.path = path;
    this.defaultKey = defaultKey;
    this.strategy = strategy;
    this.reads = new SettledReads<>(first);
    this.contents = first;
    this.label = label;
    this.selected = select();
  }

  /** No device-plugin config: nothing shared by it, {@code migd.mig-strategy} or mixed. */
  static DevicePluginConfigSource none(String configuredStrategy) {
    return new DevicePluginConfigSource(
        null,
        "",
        configuredStrategy.isBlank() ? MigStrategy.MIXED : MigStrategy.parse(configuredStrategy),
        new Contents.Keys(new TreeMap<>(), false),
        Optional.empty());
  }

  /**
   * Reads the config once with the node's label as read at start. The MIG strategy is {@code
   * configuredStrategy} ({@code migd.mig-strategy}) when set, else the selected config's {@code
   * flags.migStrategy}, else mixed; it holds until migd restarts.
   */
  static DevicePluginConfigSource start(
      String path, String defaultKey, String configuredStrategy, Optional<String> label) {
    if (path.isBlank()) {
      return none(configuredStrategy);
    }
    Path file = Path.of(path);
    Contents first = read(file);
    MigStrategy strategy = MigStrategy.MIXED;
    if (!configuredStrategy.isBlank()) {
      strategy = MigStrategy.parse(configuredStrategy);
    } else {
      var probe = new DevicePluginConfigSource(file, defaultKey, strategy, first, label);
      if (probe.problem().isEmpty() && !probe.defaults().config().migStrategy().isEmpty()) {
        strategy = MigStrategy.parse(probe.defaults().config().migStrategy());
      }
    }
    var source = new DevicePluginConfigSource(file, defaultKey, strategy, first, label);
    source.logSelected();
    return source;
  }

  /** The MIG strategy of this run. */
  MigStrategy strategy() {
    return strategy;
  }

  /** Whether there is a device-plugin config to read again. */
  boolean isLive() {
    return path != null;
  }

  /**
   * The sharing the selected config gives; {@link SharingDefaults#NONE} while there is a problem.
   */
  SharingDefaults defaults() {
    return selected.defaults();
  }

  /** Why the node gets no device-plugin config now, when it should have one. */
  Optional<String> problem() {
    String problem = selected.problem();
    return problem.isEmpty() ? Optional.empty() : Optional.of(problem);
  }

  /**
   * The node's label as the watch saw it.
   *
   * @return whether what the node gets changed
   */
  synchronized boolean labelSeen(Optional<String> value) {
    if (value.equals(label)) {
      return false;
    }
    label = value;
    return reselect();
  }

  /**
   * Reads the file or directory once more.
   *
   * @return whether what the node gets changed
   */
  boolean poll() {
    if (!isLive()) {
      return false;
    }
    Contents now = read(path);
    synchronized (this) {
      Optional<Contents> settled = reads.next(now);
      if (settled.isEmpty()) {
        return false;
      }
      contents = settled.get();
      return reselect();
    }
  }

  private boolean reselect() {
    Selected before = selected;
    selected = select();
    if (selected.equals(before)) {
      return false;
    }
    logSelected();
    return true;
  }

  private void logSelected() {
    if (selected.problem().isEmpty()) {
      selected.warnings().forEach(w -> log.warn("{}", w));
      DevicePluginConfig config = selected.defaults().config();
      log.info(
          "device-plugin config {}: resources={} migStrategy={}",
          selected.defaults().source(),
          config.resources().keySet(),
          config.migStrategy().isEmpty() ? "(not set)" : config.migStrategy());
      if (!config.migStrategy().isEmpty() && MigStrategy.parse(config.migStrategy()) != strategy) {
        log.warn(
            "device-plugin config {}: flags.migStrategy={} is not applied: this run uses {}"
                + " (migd.mig-strategy, or the config read at start; it changes when migd"
                + " restarts)",
            selected.defaults().source(),
            config.migStrategy(),
            strategy.wireName());
      }
    } else {
      log.error("{}; nothing on the GPUs changes until it is fixed", selected.problem());
    }
  }

  private Selected select() {
    if (path == null) {
      return new Selected(SharingDefaults.NONE, "");
    }
    return switch (contents) {
      case Contents.Unreadable(var why) -> new Selected(SharingDefaults.NONE, why);
      case Contents.Keys(var texts, var directory) -> select(texts, directory);
    };
  }

  private Selected select(SortedMap<String, String> texts, boolean directory) {
    String key;
    String source;
    if (!directory) {
      key = texts.isEmpty() ? "" : texts.firstKey();
      source = path.toString();
    } else {
      key = label.orElse(defaultKey);
      if (key.isEmpty()) {
        log.debug("no {} label and no migd.device-plugin-config-default: nothing shared", LABEL);
        return new Selected(SharingDefaults.NONE, "");
      }
      source = path.resolve(key).toString();
      if (!texts.containsKey(key)) {
        return new Selected(
            SharingDefaults.NONE,
            "device-plugin config directory "
                + path
                + " has no key \""
                + key
                + "\" ("
                + (label.isPresent()
                    ? "the node label " + LABEL
                    : "migd.device-plugin-config-default")
                + " names it); it has "
                + (texts.isEmpty() ? "none" : String.join(", ", texts.keySet())));
      }
    }
    return switch (DevicePluginConfigParser.read(texts.get(key), source)) {
      case DevicePluginConfigRead.Valid(var config, var warnings) ->
          new Selected(
              new SharingDefaults(source, config, strategy == MigStrategy.SINGLE), warnings, "");
      case DevicePluginConfigRead.Refused(var reason) -> new Selected(SharingDefaults.NONE, reason);
    };
  }

  /** The text of every key, following symbolic links; names starting with a dot are skipped. */
  static Contents read(Path path) {
    try {
      if (!Files.isDirectory(path)) {
        String name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        return new Contents.Keys(new TreeMap<>(Map.of(name, ConfigFiles.read(path))), false);
      }
      var texts = new TreeMap<String, String>();
      try (Stream<Path> entries = Files.list(path)) {
        for (Path entry : entries.toList()) {
          String name = entry.getFileName().toString();
          if (!name.startsWith(".") && Files.isRegularFile(entry)) {
            texts.put(name, ConfigFiles.read(entry));
          }
        }
      }
      return new Contents.Keys(texts, true);
    } catch (ConfigFileException e) {
      return new Contents.Unreadable("device-plugin config: " + e.getMessage());
    } catch (IOException e) {
      return new Contents.Unreadable(
          "cannot read the device-plugin config directory " + path + ": " + e);
    }
  }
}
