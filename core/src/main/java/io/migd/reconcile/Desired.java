package io.migd.reconcile;

import io.migd.layout.GpuTarget;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The intent: a named config or an explicit per-GPU layout, where it came from, its generation
 * (increases on every change), the label value and the digest of the config's content it was made
 * from (empty when they do not apply), and the UUIDs of the GPUs it was resolved against.
 *
 * @param replaced by GPU index, why this generation was made for GPUs that replaced the ones its
 *     named config was resolved against before ({@code GPU 0 was replaced: <old> -> <new>}, {@code
 *     GPU 3 is now index 2}); empty for a generation made by a change of intent
 */
public record Desired(
    Source source,
    Intent intent,
    long generation,
    String labelValue,
    String configDigest,
    Map<Integer, String> gpuUuids,
    Map<Integer, String> replaced) {

  /** Where an intent came from. */
  public enum Source {
    /** No intent: migd changes nothing. */
    NONE,
    /** The node label {@code nvidia.com/mig.config}. */
    LABEL,
    /** {@code PUT /api/v1/layout}. */
    REST,
    /** {@code migd.config} in {@code migd.config-file}, or a command's {@code -f}/{@code -c}. */
    FILE;

    /** The wire name. */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** What should be. */
  public sealed interface Intent {
    /** Nothing; observe and report only. */
    record Nothing() implements Intent {}

    /** A config of the config file, resolved per GPU. */
    record NamedConfig(String name) implements Intent {
      /** Checks the name is present. */
      public NamedConfig {
        Objects.requireNonNull(name);
      }
    }

    /** An explicit layout for the listed GPUs; the others are left alone. */
    record Layout(List<GpuTarget> gpus) implements Intent {
      /** Copies the list. */
      public Layout {
        gpus = List.copyOf(gpus);
      }
    }
  }

  /** Copies the maps. */
  public Desired {
    Objects.requireNonNull(source);
    Objects.requireNonNull(intent);
    Objects.requireNonNull(labelValue);
    Objects.requireNonNull(configDigest);
    gpuUuids = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(gpuUuids));
    replaced = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(replaced));
  }

  /** An intent made by a change of intent, not by replaced GPUs. */
  public Desired(
      Source source,
      Intent intent,
      long generation,
      String labelValue,
      String configDigest,
      Map<Integer, String> gpuUuids) {
    this(source, intent, generation, labelValue, configDigest, gpuUuids, Map.of());
  }

  /** No intent at all. */
  public static Desired none() {
    return new Desired(Source.NONE, new Intent.Nothing(), 0, "", "", Map.of());
  }

  /** A named config from a file, not yet resolved against GPUs. */
  public static Desired config(Source source, String name, long generation) {
    return new Desired(source, new Intent.NamedConfig(name), generation, "", "", Map.of());
  }

  /** The same intent, recorded as resolved against these GPU UUIDs. */
  public Desired resolvedAgainst(Map<Integer, String> uuids) {
    return new Desired(source, intent, generation, labelValue, configDigest, uuids, replaced);
  }

  /**
   * Whether the intent applies to whatever GPUs are present (a named config, as mig-manager applies
   * it) rather than to the GPUs it was made for (an explicit per-GPU layout).
   */
  public boolean followsReplacedGpus() {
    return intent instanceof Intent.NamedConfig;
  }

  /**
   * The next generation of this intent, from the same source, made for the GPUs now present: {@code
   * uuids} by index, {@code replaced} saying which GPUs were replaced.
   */
  public Desired forReplacedGpus(Map<Integer, String> uuids, Map<Integer, String> replaced) {
    return new Desired(source, intent, generation + 1, labelValue, configDigest, uuids, replaced);
  }
}
