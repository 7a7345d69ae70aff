package io.migd.cdi;

import io.migd.command.ExternalCommand;
import io.migd.reconcile.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The CDI spec of the node's GPUs and MIG devices, made by NVIDIA's toolkit under migd's own vendor
 * (DESIGN section 10): {@code nvidia-ctk cdi generate} against the host's driver root as mounted in
 * migd's container, names by UUID, kind {@code k8s.migd.io/gpu} and the host's {@code
 * nvidia-cdi-hook}; then {@code nvidia-ctk cdi transform root} back to the host's driver root, so
 * every host path is the host's. The result replaces {@code <cdi dir>/k8s.migd.io-gpu.yaml}
 * atomically. migd never writes or depends on an {@code nvidia.com/*} spec: the toolkit's own (or
 * the GPU Operator's) may define the same names there, and a name two specs define is unresolvable.
 */
public final class GpuCdiSpec implements CommonEdits {
  /** The kind of the spec: device-plugin mode answers {@code k8s.migd.io/gpu=<UUID>}. */
  public static final String KIND = "k8s.migd.io/gpu";

  /** The device of the spec that stands for every GPU. */
  public static final String ALL_DEVICES = "all";

  /** The spec's file in the CDI directory. */
  public static final String FILE_NAME = "k8s.migd.io-gpu.yaml";

  private static final Logger log = LoggerFactory.getLogger(GpuCdiSpec.class);
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  /**
   * @param nvidiaCtk the {@code nvidia-ctk} command, as an argument list ({@code
   *     migd.cdi.nvidia-ctk})
   * @param cdiDir where the spec goes ({@code migd.cdi.dir})
   * @param driverRoot the host's driver root ({@code migd.cdi.driver-root}, {@code /} on most
   *     nodes, {@code /run/nvidia/driver} under the GPU Operator's driver container)
   * @param containerDriverRoot where that root is mounted in migd's container ({@code
   *     migd.cdi.container-driver-root}, {@code /driver-root})
   * @param hookPath the host's {@code nvidia-cdi-hook}, which the container runtime runs ({@code
   *     migd.cdi.hook-path}); the chart mounts it at the same path
   * @param timeout how long each command may run
   */
  public record Settings(
      List<String> nvidiaCtk,
      Path cdiDir,
      Path driverRoot,
      Path containerDriverRoot,
      Path hookPath,
      Duration timeout) {
    /** Copies the command. */
    public Settings {
      nvidiaCtk = List.copyOf(nvidiaCtk);
      Objects.requireNonNull(cdiDir);
      Objects.requireNonNull(driverRoot);
      Objects.requireNonNull(containerDriverRoot);
      Objects.requireNonNull(hookPath);
      Objects.requireNonNull(timeout);
    }

    /** The spec's file. */
    public Path file() {
      return cdiDir.resolve(FILE_NAME);
    }
  }

  /**
   * A spec as written.
   *
   * @param deviceNames the names of its devices (GPU and MIG UUIDs, and {@code all})
   * @param commonEdits its spec-level container edits (driver libraries, hooks, control nodes)
   */
  public record Generated(List<String> deviceNames, JsonNode commonEdits) {
    /** Copies the names and the edits. */
    public Generated {
      deviceNames = List.copyOf(deviceNames);
      commonEdits = commonEdits.deepCopy();
    }

    @Override
    public JsonNode commonEdits() {
      return commonEdits.deepCopy();
    }
  }

  private final Settings settings;
  private final AtomicReference<Generated> latest = new AtomicReference<>();
  private final AtomicReference<String> lastFailure = new AtomicReference<>("not generated yet");

  /** A spec made with {@code settings}; nothing runs until {@link #generate}. */
  public GpuCdiSpec(Settings settings) {
    this.settings = settings;
  }

  /**
   * Refuses settings that cannot work, naming the one to change: the driver root not mounted where
   * {@code container-driver-root} says, or no hook at {@code hook-path}.
   *
   * @throws CdiSetupException naming the path and the property
   */
  public static void check(Settings settings) {
    if (!Files.isDirectory(settings.containerDriverRoot())) {
      throw new CdiSetupException(
          "the host's driver root is not mounted at "
              + settings.containerDriverRoot()
              + " (migd.cdi.container-driver-root): mount the driver root ("
              + settings.driverRoot()
              + ", migd.cdi.driver-root) there read-only, or set migd.cdi.enabled=false");
    }
    if (!Files.isRegularFile(settings.hookPath())) {
      throw new CdiSetupException(
          "no nvidia-cdi-hook at "
              + settings.hookPath()
              + " (migd.cdi.hook-path): install NVIDIA's container toolkit on the node (the GPU"
              + " Operator puts it in /usr/local/nvidia/toolkit) and name its nvidia-cdi-hook");
    }
  }

  /** The settings it runs with. */
  public Settings settings() {
    return settings;
  }

  /** The spec last written; empty before the first generation succeeded. */
  public Optional<Generated> latest() {
    return Optional.ofNullable(latest.get());
  }

  @Override
  public JsonNode current() {
    return latest()
        .map(Generated::commonEdits)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no CDI spec of the GPUs ("
                        + settings.file()
                        + ") to take the driver's libraries and hooks from: "
                        + lastFailure.get()));
  }

  /**
   * Generates the spec, transforms it to the host's root and replaces the file.
   *
   * @throws IllegalStateException when {@code nvidia-ctk} fails or writes a spec of another kind,
   *     with its output
   * @throws UncheckedIOException when the spec cannot be read or written
   */
  public Generated generate() {
    try {
      Path work = Files.createTempDirectory("migd-cdi-");
      Path generated = work.resolve("generated.yaml");
      Path transformed = work.resolve("host.yaml");
      try {
        Generated spec = generateIn(generated, transformed);
        latest.set(spec);
        log.info(
            "CDI spec written: file={} kind={} devices={}",
            settings.file(),
            KIND,
            spec.deviceNames().size());
        return spec;
      } finally {
        removeQuietly(List.of(generated, transformed, work));
      }
    } catch (IOException e) {
      lastFailure.set(e.toString());
      throw new UncheckedIOException("writing the CDI spec " + settings.file(), e);
    } catch (RuntimeException e) {
      lastFailure.set(e.getMessage());
      throw e;
    }
  }

  private Generated generateIn(Path generated, Path transformed) throws IOException {
    run(
        "cdi",
        "generate",
        "--output=" + generated,
        "--format=yaml",
        "--driver-root=" + settings.containerDriverRoot(),
        "--device-name-strategy=uuid",
        "--vendor=" + KIND.substring(0, KIND.indexOf('/')),
        "--class=" + KIND.substring(KIND.indexOf('/') + 1),
        "--nvidia-cdi-hook-path=" + settings.hookPath());
    run(
        "cdi",
        "transform",
        "root",
        "--from=" + settings.containerDriverRoot(),
        "--to=" + settings.driverRoot(),
        "--input=" + generated,
        "--output=" + transformed);
    String text = Files.readString(transformed);
    JsonNode spec;
    try {
      spec = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new IllegalStateException("nvidia-ctk wrote a CDI spec migd cannot read: " + e, e);
    }
    String kind = spec.path("kind").asString("");
    if (!kind.equals(KIND)) {
      throw new IllegalStateException(
          "nvidia-ctk wrote a CDI spec of kind \"" + kind + "\", not " + KIND);
    }
    var names = new ArrayList<String>();
    spec.path("devices").forEach(d -> names.add(d.path("name").asString("")));
    AtomicFiles.writeForThisBoot(settings.file(), text);
    return new Generated(names, spec.path("containerEdits"));
  }

  private void run(String... args) {
    var command = new ArrayList<>(settings.nvidiaCtk());
    command.addAll(List.of(args));
    ExternalCommand.Ran ran = ExternalCommand.of(command, settings.timeout()).run();
    if (!ran.succeeded()) {
      throw new IllegalStateException("generating the CDI spec of the GPUs: " + ran.describe());
    }
  }

  /** Removes the work files; one left behind (a failed run's temporary file) harms nothing. */
  private static void removeQuietly(List<Path> paths) {
    for (Path path : paths) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        log.debug("path={} left behind: {}", path, e.toString());
      }
    }
  }
}
