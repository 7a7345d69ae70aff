package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The intent, persisted under {@code migd.state-dir} so that a restart (or a crash) re-applies it
 * before anything is advertised. Written with {@link AtomicFiles}.
 */
public final class IntentStore {
  /** The file's name in the state directory. */
  public static final String FILE_NAME = "intent.json";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Path file;

  /** A store in {@code stateDir}. */
  public IntentStore(Path stateDir) {
    this.file = stateDir.resolve(FILE_NAME);
  }

  /** The stored form: plain JSON that a person can read. */
  record Stored(
      int formatVersion,
      String source,
      String config,
      List<StoredGpu> gpus,
      long generation,
      String labelValue,
      String configDigest,
      Map<Integer, String> gpuUuids) {}

  /**
   * {@code sharing} ({@code time-slicing} or {@code mps}) and {@code sliceSharing} are absent from
   * files written before sharing existed: time-slicing, no slice shared.
   */
  record StoredGpu(
      int gpu,
      boolean migEnabled,
      List<StoredInstance> gpuInstances,
      int replicas,
      String sharing,
      Map<String, StoredSharing> sliceSharing) {}

  record StoredSharing(String strategy, int replicas) {
    static StoredSharing of(Sharing sharing) {
      return new StoredSharing(sharing.strategy(), sharing.replicas());
    }

    Sharing toSharing() {
      return sharing(strategy, replicas);
    }
  }

  private static Sharing sharing(String strategy, int replicas) {
    return "mps".equals(strategy) ? new Sharing.Mps(replicas) : new Sharing.TimeSliced(replicas);
  }

  record StoredInstance(String profile, List<Integer> computeInstanceSlices) {}

  /** The persisted intent exists but cannot be read: the state directory needs a person. */
  public static final class UnreadableException extends RuntimeException {
    UnreadableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The persisted intent, if any.
   *
   * @throws UnreadableException when the file exists but cannot be read or parsed
   */
  public Optional<Desired> load() {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      Stored stored = JSON.readValue(Files.readString(file), Stored.class);
      return Optional.of(fromStored(stored));
    } catch (IOException | JacksonException | IllegalArgumentException e) {
      throw new UnreadableException(
          "the persisted intent "
              + file
              + " cannot be read ("
              + firstLine(e)
              + "); fix or remove it, then restart migd",
          e);
    }
  }

  /** Persists an intent, replacing the previous one. */
  public void save(Desired desired) {
    try {
      AtomicFiles.write(
          file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(toStored(desired)));
    } catch (IOException e) {
      throw new UncheckedIOException("persisting the intent to " + file, e);
    }
  }

  private static Stored toStored(Desired desired) {
    String config = "";
    List<StoredGpu> gpus = List.of();
    switch (desired.intent()) {
      case Desired.Intent.Nothing() -> {}
      case Desired.Intent.NamedConfig(var name) -> config = name;
      case Desired.Intent.Layout(var targets) ->
          gpus =
              targets.stream()
                  .map(
                      t ->
                          new StoredGpu(
                              t.gpu().value(),
                              t.migEnabled(),
                              t.gpuInstances().stream()
                                  .map(
                                      s ->
                                          new StoredInstance(
                                              s.profile().toString(), s.computeInstanceSlices()))
                                  .toList(),
                              t.replicas(),
                              t.sharing().strategy(),
                              sliceSharing(t)))
                  .toList();
    }
    return new Stored(
        1,
        desired.source().name(),
        config,
        gpus,
        desired.generation(),
        desired.labelValue(),
        desired.configDigest(),
        desired.gpuUuids());
  }

  private static Desired fromStored(Stored s) {
    if (s.formatVersion() != 1) {
      throw new IllegalArgumentException("unknown format version " + s.formatVersion());
    }
    Desired.Intent intent;
    if (!s.config().isEmpty()) {
      intent = new Desired.Intent.NamedConfig(s.config());
    } else if (!s.gpus().isEmpty()) {
      intent =
          new Desired.Intent.Layout(
              s.gpus().stream()
                  .map(
                      g ->
                          new GpuTarget(
                              new GpuIndex(g.gpu()),
                              g.migEnabled(),
                              g.gpuInstances().stream()
                                  .map(
                                      i ->
                                          new GpuInstanceSpec(
                                              ProfileName.parse(i.profile()),
                                              i.computeInstanceSlices()))
                                  .toList(),
                              sharing(g.sharing(), g.replicas()),
                              sliceSharing(g)))
                  .toList());
    } else {
      intent = new Desired.Intent.Nothing();
    }
    return new Desired(
        Desired.Source.valueOf(s.source()),
        intent,
        s.generation(),
        s.labelValue(),
        s.configDigest() == null ? "" : s.configDigest(),
        s.gpuUuids());
  }

  private static Map<String, StoredSharing> sliceSharing(GpuTarget target) {
    var stored = new LinkedHashMap<String, StoredSharing>();
    target.sliceSharing().forEach((p, sh) -> stored.put(p.toString(), StoredSharing.of(sh)));
    return stored;
  }

  private static Map<ProfileName, Sharing> sliceSharing(StoredGpu gpu) {
    var sharing = new LinkedHashMap<ProfileName, Sharing>();
    if (gpu.sliceSharing() != null) {
      gpu.sliceSharing().forEach((p, sh) -> sharing.put(ProfileName.parse(p), sh.toSharing()));
    }
    return sharing;
  }

  /** Parsers describe where in several lines; the first says what is wrong. */
  private static String firstLine(Exception e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
  }
}
