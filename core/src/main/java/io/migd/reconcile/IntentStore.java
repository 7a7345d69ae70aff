package io.migd.reconcile;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

  /**
   * The stored form: plain JSON that a person can read. Its components are boxed so that a key
   * missing from the file (or {@code null}) is told apart from zero and refused by name. {@code
   * configDigest} is absent from files written before it existed, {@code replaced} from files of a
   * generation made by a change of intent.
   */
  record Stored(
      Integer formatVersion,
      String source,
      String config,
      List<StoredGpu> gpus,
      Long generation,
      String labelValue,
      String configDigest,
      Map<Integer, String> gpuUuids,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<Integer, String> replaced) {}

  /**
   * {@code sharing} ({@code time-slicing} or {@code mps}) and {@code sliceSharing} are absent from
   * files written before sharing existed: time-slicing, no slice shared. {@code dynamic} is absent
   * from files written before DRA mode existed, and for static GPUs: static. {@code shares} is
   * absent from files written before shares existed, and for GPUs without them: no shares.
   */
  record StoredGpu(
      Integer gpu,
      Boolean migEnabled,
      List<StoredInstance> gpuInstances,
      Integer replicas,
      String sharing,
      Map<String, StoredSharing> sliceSharing,
      Boolean dynamic,
      Boolean shares) {}

  record StoredSharing(String strategy, Integer replicas) {
    static StoredSharing of(Sharing sharing) {
      return new StoredSharing(sharing.strategy(), sharing.replicas());
    }

    Sharing toSharing(String where) {
      return sharing(
          required(strategy, where + ".strategy"), required(replicas, where + ".replicas"));
    }
  }

  private static Sharing sharing(String strategy, int replicas) {
    return "mps".equals(strategy) ? new Sharing.Mps(replicas) : new Sharing.TimeSliced(replicas);
  }

  record StoredInstance(String profile, List<Integer> computeInstanceSlices) {}

  /**
   * {@code value}, which the file must hold at {@code key}: a missing key or a {@code null} makes
   * the file unreadable (issue 17: it ended {@code serve} as a bug, exit 70, instead of exit 3).
   */
  private static <T> T required(T value, String key) {
    if (value == null) {
      throw new IllegalArgumentException("\"" + key + "\" is missing or null");
    }
    return value;
  }

  /** {@code list}, required at {@code key}, with no {@code null} element. */
  private static <T> List<T> requiredList(List<T> list, String key) {
    required(list, key);
    for (int i = 0; i < list.size(); i++) {
      required(list.get(i), key + "[" + i + "]");
    }
    return list;
  }

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
                              sliceSharing(t),
                              t.dynamic() ? true : null,
                              t.shares() ? true : null))
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
        desired.gpuUuids(),
        desired.replaced());
  }

  private static Desired fromStored(Stored s) {
    if (s == null) {
      throw new IllegalArgumentException("it holds null, not an intent");
    }
    if (required(s.formatVersion(), "formatVersion") != 1) {
      throw new IllegalArgumentException("unknown format version " + s.formatVersion());
    }
    String config = required(s.config(), "config");
    List<StoredGpu> gpus = requiredList(s.gpus(), "gpus");
    Desired.Intent intent;
    if (!config.isEmpty()) {
      intent = new Desired.Intent.NamedConfig(config);
    } else if (!gpus.isEmpty()) {
      var targets = new ArrayList<GpuTarget>();
      for (int i = 0; i < gpus.size(); i++) {
        targets.add(target(gpus.get(i), "gpus[" + i + "]"));
      }
      intent = new Desired.Intent.Layout(targets);
    } else {
      intent = new Desired.Intent.Nothing();
    }
    var uuids = required(s.gpuUuids(), "gpuUuids");
    uuids.forEach((gpu, uuid) -> required(uuid, "gpuUuids." + gpu));
    return new Desired(
        Desired.Source.valueOf(required(s.source(), "source")),
        intent,
        required(s.generation(), "generation"),
        required(s.labelValue(), "labelValue"),
        s.configDigest() == null ? "" : s.configDigest(),
        uuids,
        s.replaced() == null ? Map.of() : s.replaced());
  }

  private static GpuTarget target(StoredGpu g, String where) {
    var instances = new ArrayList<GpuInstanceSpec>();
    var stored = requiredList(g.gpuInstances(), where + ".gpuInstances");
    for (int i = 0; i < stored.size(); i++) {
      String at = where + ".gpuInstances[" + i + "]";
      instances.add(
          new GpuInstanceSpec(
              ProfileName.parse(required(stored.get(i).profile(), at + ".profile")),
              requiredList(stored.get(i).computeInstanceSlices(), at + ".computeInstanceSlices")));
    }
    return new GpuTarget(
        new GpuIndex(required(g.gpu(), where + ".gpu")),
        required(g.migEnabled(), where + ".migEnabled"),
        instances,
        sharing(g.sharing(), required(g.replicas(), where + ".replicas")),
        sliceSharing(g, where),
        Boolean.TRUE.equals(g.dynamic()),
        Boolean.TRUE.equals(g.shares()));
  }

  private static Map<String, StoredSharing> sliceSharing(GpuTarget target) {
    var stored = new LinkedHashMap<String, StoredSharing>();
    target.sliceSharing().forEach((p, sh) -> stored.put(p.toString(), StoredSharing.of(sh)));
    return stored;
  }

  private static Map<ProfileName, Sharing> sliceSharing(StoredGpu gpu, String where) {
    var sharing = new LinkedHashMap<ProfileName, Sharing>();
    if (gpu.sliceSharing() != null) {
      gpu.sliceSharing()
          .forEach(
              (p, sh) -> {
                String at = where + ".sliceSharing." + p;
                sharing.put(ProfileName.parse(p), required(sh, at).toSharing(at));
              });
    }
    return sharing;
  }

  /** Parsers describe where in several lines; the first says what is wrong. */
  private static String firstLine(Exception e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
  }
}
