package io.migd.app;

import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.profiles.MigConfigWriter;
import io.migd.reconcile.AtomicFiles;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import io.migd.rest.ConfigFileNow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The config file as it is now (DESIGN section 13): read at start, then again on every {@link
 * #poll}. New content counts only when two reads a poll apart return the same text, so a
 * half-written file is never applied; reads follow symbolic links, so a ConfigMap volume's {@code
 * ..data} swap is seen. The last valid content is persisted in the state directory and stays what
 * the configs are looked up in while the file is invalid; {@link #problem} then says why, so every
 * GPU a named config selects ends {@code failed} and nothing on the GPUs changes.
 *
 * <p>A REST intent naming a config keeps the content it was first resolved with ({@link
 * #forIntent}): an edit of the file, valid or not, changes nothing under it. That content is
 * persisted too ({@value #REST_PINNED}), so a restart keeps it.
 */
final class LiveConfigFile implements ConfigLookup, ConfigFileNow {
  /** The last valid content's file name in the state directory. */
  static final String LAST_VALID = "config-file.yaml";

  /** The content a REST intent named, in the state directory, after a generation line. */
  static final String REST_PINNED = "rest-config.yaml";

  private static final String GENERATION_LINE = "# generation ";

  private static final Logger log = LoggerFactory.getLogger(LiveConfigFile.class);

  /** What one read of the file gave: its text, or why there is none. */
  sealed interface FileRead {
    record Text(String text) implements FileRead {}

    record Unreadable(String why) implements FileRead {}
  }

  /** What a poll found: new valid content, or a file that yields no config. */
  sealed interface Edit {
    record Valid(MigConfigFile before, MigConfigFile after) implements Edit {}

    record Invalid(String problem) implements Edit {}
  }

  /** {@code problem} is empty while the file is valid. */
  private record State(MigConfigFile valid, String problem) {}

  /** The content of the config a REST intent of {@code generation} named. */
  private record Pinned(long generation, MigConfig config) implements ConfigLookup {
    @Override
    public Optional<MigConfig> config(String name) {
      return config.name().equals(name) ? Optional.of(config) : Optional.empty();
    }
  }

  private final String configFile;
  private final Path lastValid;
  private volatile State state;
  private final Path restPinned;
  private final Object pinning = new Object();
  // guarded by pinning
  private Pinned pinned;
  // touched by the polling thread only
  private final SettledReads<FileRead> reads;

  private LiveConfigFile(String configFile, Path lastValid, State state, FileRead read) {
    this.configFile = configFile;
    this.lastValid = lastValid;
    this.restPinned = lastValid.resolveSibling(REST_PINNED);
    this.pinned = pinned(restPinned).orElse(null);
    this.state = state;
    this.reads = new SettledReads<>(read);
  }

  /**
   * Reads {@code configFile} at start as {@link LoadedConfigFile#load} does; an invalid file on a
   * node keeps the last valid content persisted in {@code stateDir} as the configs.
   */
  static LiveConfigFile start(
      String configFile, GpuModelCatalog catalog, String nodeName, Path stateDir) {
    Path lastValid = stateDir.resolve(LAST_VALID);
    FileRead first = configFile.isBlank() ? new FileRead.Unreadable("") : read(configFile);
    LoadedConfigFile loaded = LoadedConfigFile.load(configFile, catalog, nodeName);
    MigConfigFile valid = loaded.file();
    if (loaded.problem().isPresent()) {
      valid = persisted(lastValid).orElse(valid);
    } else if (!configFile.isBlank()) {
      persist(lastValid, valid);
    }
    return new LiveConfigFile(
        configFile, lastValid, new State(valid, loaded.problem().orElse("")), first);
  }

  /** Whether the file is read again: false for the configs generated from the catalogue. */
  boolean isLive() {
    return !configFile.isBlank();
  }

  @Override
  public Optional<MigConfig> config(String name) {
    return state.valid().config(name);
  }

  @Override
  public Optional<String> problem() {
    String problem = state.problem();
    return problem.isEmpty() ? Optional.empty() : Optional.of(problem);
  }

  /** The last valid content. */
  @Override
  public MigConfigFile file() {
    return state.valid();
  }

  /**
   * Under a REST intent naming a config, that config as it was when the intent was first resolved
   * (or planned, before the {@code PUT} made it); otherwise this file as it is now. A planning
   * intent of generation 0 ({@code GET /api/v1/configs}) reads the file as it is now.
   */
  @Override
  public ConfigLookup forIntent(Desired desired) {
    if (desired.source() != Desired.Source.REST
        || desired.generation() <= 0
        || !(desired.intent() instanceof Desired.Intent.NamedConfig(var name))) {
      return this;
    }
    Pinned pin;
    synchronized (pinning) {
      if (pinned != null
          && pinned.generation() == desired.generation()
          && pinned.config().name().equals(name)) {
        return pinned;
      }
      Optional<MigConfig> now = problem().isPresent() ? Optional.empty() : config(name);
      if (now.isEmpty()) {
        return this;
      }
      pin = new Pinned(desired.generation(), now.get());
      pinned = pin;
    }
    persist(
        restPinned,
        GENERATION_LINE
            + pin.generation()
            + "\n"
            + MigConfigWriter.write(MigConfigFile.of(List.of(pin.config()))));
    return pin;
  }

  /**
   * Reads the file once more; what changed when this read equals the one before and differs from
   * what was last acted on, else empty.
   */
  Optional<Edit> poll() {
    if (!isLive()) {
      return Optional.empty();
    }
    return reads
        .next(read(configFile))
        .map(
            now ->
                switch (now) {
                  case FileRead.Text(var text) -> parsed(text);
                  case FileRead.Unreadable(var why) -> invalid(why);
                });
  }

  private Edit parsed(String text) {
    MigConfigFile after;
    try {
      after = ConfigFiles.parse(Path.of(configFile), text);
    } catch (ConfigFileException e) {
      return invalid(LoadedConfigFile.oneLine(e));
    }
    MigConfigFile before = state.valid();
    state = new State(after, "");
    persist(lastValid, after);
    log.info("config file {} changed: configs={}", configFile, after.configs().size());
    return new Edit.Valid(before, after);
  }

  private Edit invalid(String problem) {
    state = new State(state.valid(), problem);
    log.error(
        "{}; the last valid content stays the target and nothing on the GPUs changes until the"
            + " file is fixed",
        problem);
    return new Edit.Invalid(problem);
  }

  private static FileRead read(String configFile) {
    try {
      return new FileRead.Text(ConfigFiles.read(Path.of(configFile)));
    } catch (ConfigFileException e) {
      return new FileRead.Unreadable(LoadedConfigFile.oneLine(e));
    }
  }

  private static void persist(Path lastValid, MigConfigFile valid) {
    persist(lastValid, MigConfigWriter.write(valid));
  }

  private static void persist(Path file, String content) {
    try {
      AtomicFiles.write(file, content);
    } catch (IOException e) {
      log.warn("cannot persist the config file's content to {}: {}", file, e);
    }
  }

  /** The content a REST intent named, as persisted; empty when none is or it cannot be read. */
  private static Optional<Pinned> pinned(Path file) {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      String first = text.lines().findFirst().orElse("");
      if (!first.startsWith(GENERATION_LINE)) {
        throw new IOException("no generation line");
      }
      long generation = Long.parseLong(first.substring(GENERATION_LINE.length()).strip());
      var configs = MigConfigParser.parse(text, REST_PINNED).configs();
      return configs.size() == 1
          ? Optional.of(new Pinned(generation, configs.getFirst()))
          : Optional.empty();
    } catch (IOException | NumberFormatException | ConfigFileException e) {
      log.warn("ignoring the persisted config of the REST intent {}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }

  private static Optional<MigConfigFile> persisted(Path lastValid) {
    if (!Files.exists(lastValid)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          MigConfigParser.parse(Files.readString(lastValid, StandardCharsets.UTF_8), LAST_VALID));
    } catch (IOException | ConfigFileException e) {
      log.warn("ignoring the persisted config file {}: {}", lastValid, e.getMessage());
      return Optional.empty();
    }
  }

  /** A digest of the named config's content, so an edit under the same name is a new generation. */
  static String digest(MigConfigFile configs, String name) {
    String content =
        configs
            .config(name)
            .map(c -> MigConfigWriter.write(MigConfigFile.of(List.of(c))))
            .orElse("");
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
