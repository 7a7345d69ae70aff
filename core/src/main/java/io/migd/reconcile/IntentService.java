package io.migd.reconcile;

import io.migd.layout.NodeObserver;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current intent and persists every change. At start the persisted intent wins; a config
 * named by {@code migd.config} is the intent only when nothing else was given (no intent persisted,
 * or one that came from the file itself).
 *
 * <p>The node label {@code nvidia.com/mig.config} comes in through {@link #labelSeen}: a value that
 * differs from the label value the current intent recorded is a new {@code label} intent, an equal
 * one changes nothing. Every intent records the label value it was made under, so the same rule
 * decides at start: a label changed while migd was down wins, an unchanged one leaves the persisted
 * intent (possibly a newer REST one) in place.
 */
public final class IntentService {
  private static final Logger log = LoggerFactory.getLogger(IntentService.class);

  private final IntentStore store;
  private volatile Optional<FileConfig> fileConfig;
  private volatile Desired current;

  /** The config {@code migd.config} names and a digest of its content in the config file. */
  public record FileConfig(String name, String digest) {}

  /**
   * Loads the persisted intent; {@code fileConfig} is the config {@code migd.config} names, empty
   * when unset. A different name, or different content under the same name, is a new generation.
   */
  public IntentService(IntentStore store, Optional<FileConfig> fileConfig) {
    this.store = store;
    this.fileConfig = fileConfig;
    Desired persisted = store.load().orElse(Desired.none());
    Desired chosen = persisted;
    if (fileConfig.isPresent()
        && (persisted.source() == Desired.Source.NONE
            || persisted.source() == Desired.Source.FILE)) {
      FileConfig file = fileConfig.get();
      boolean same =
          persisted.intent() instanceof Desired.Intent.NamedConfig(var name)
              && name.equals(file.name())
              && persisted.configDigest().equals(file.digest());
      chosen =
          same
              ? persisted
              : new Desired(
                  Desired.Source.FILE,
                  new Desired.Intent.NamedConfig(file.name()),
                  persisted.generation() + 1,
                  persisted.labelValue(),
                  file.digest(),
                  java.util.Map.of());
    }
    if (chosen != persisted) {
      store.save(chosen);
    }
    this.current = chosen;
    log.info(
        "intent source={} generation={} intent={}",
        chosen.source().wireName(),
        chosen.generation(),
        chosen.intent());
  }

  /** The intent now. */
  public Desired current() {
    return current;
  }

  /** Replaces the intent with a new generation from {@code source}; returns it. */
  public synchronized Desired change(
      Desired.Source source, Desired.Intent intent, String labelValue) {
    Desired next =
        new Desired(source, intent, current.generation() + 1, labelValue, "", java.util.Map.of());
    store.save(next);
    current = next;
    log.info(
        "intent changed source={} generation={} intent={}",
        source.wireName(),
        next.generation(),
        intent);
    return next;
  }

  /**
   * Replaces the intent with a new generation from {@code source}, keeping the label value the
   * current intent recorded (a REST change does not mean the label changed); returns it.
   */
  public synchronized Desired change(Desired.Source source, Desired.Intent intent) {
    return change(source, intent, current.labelValue());
  }

  /**
   * Replaces the intent as {@link #change(Desired.Source, Desired.Intent)} does, only if its
   * generation is still {@code expected} (a client's {@code If-Match}); empty, changing nothing,
   * when another change came first.
   */
  public synchronized Optional<Desired> changeIf(
      long expected, Desired.Source source, Desired.Intent intent) {
    if (current.generation() != expected) {
      return Optional.empty();
    }
    return Optional.of(change(source, intent));
  }

  /**
   * The node label {@code nvidia.com/mig.config} as it is now, empty when the node has none; true
   * when that changed the intent (the caller triggers a reconcile). A value is a {@code label}
   * intent naming that config, made only when it differs from the label value the current intent
   * recorded. Without the label a {@code label} intent is dropped: the config {@code migd.config}
   * names applies again if one is set, else nothing; any other intent stays.
   */
  public synchronized boolean labelSeen(Optional<String> label) {
    Desired now = current;
    String value = label.orElse("");
    if (value.equals(now.labelValue())) {
      return false;
    }
    if (!value.isEmpty()) {
      change(Desired.Source.LABEL, new Desired.Intent.NamedConfig(value), value);
      return true;
    }
    if (now.source() != Desired.Source.LABEL) {
      // the label went away under another intent: only the record changes, so that setting the
      // same value again counts as a change
      current =
          new Desired(
              now.source(), now.intent(), now.generation(), "", now.configDigest(), now.gpuUuids());
      store.save(current);
      log.info("node label removed; the {} intent stays", now.source().wireName());
      return false;
    }
    Desired next =
        fileConfig
            .map(
                file ->
                    new Desired(
                        Desired.Source.FILE,
                        new Desired.Intent.NamedConfig(file.name()),
                        now.generation() + 1,
                        "",
                        file.digest(),
                        java.util.Map.<Integer, String>of()))
            .orElseGet(
                () ->
                    new Desired(
                        Desired.Source.NONE,
                        new Desired.Intent.Nothing(),
                        now.generation() + 1,
                        "",
                        "",
                        java.util.Map.of()));
    store.save(next);
    current = next;
    log.info(
        "node label removed: intent source={} generation={} intent={}",
        next.source().wireName(),
        next.generation(),
        next.intent());
    return true;
  }

  /**
   * The config file's content changed (DESIGN section 13); {@code before} and {@code after} give
   * the digest of a named config's content in the old and the new file. True when that made a new
   * generation (the caller triggers a reconcile): the current intent names a config whose content
   * changed and came from the label or {@code migd.config}. A REST intent is never replaced by an
   * edit of the file.
   */
  public synchronized boolean configEdited(
      Function<String, String> before, Function<String, String> after) {
    fileConfig = fileConfig.map(f -> new FileConfig(f.name(), after.apply(f.name())));
    Desired now = current;
    if (!(now.intent() instanceof Desired.Intent.NamedConfig(var name))
        || (now.source() != Desired.Source.LABEL && now.source() != Desired.Source.FILE)) {
      return false;
    }
    String digest = after.apply(name);
    if (digest.equals(before.apply(name))) {
      return false;
    }
    Desired next =
        new Desired(
            now.source(), now.intent(), now.generation() + 1, now.labelValue(), digest, Map.of());
    store.save(next);
    current = next;
    log.info(
        "config edited: intent source={} generation={} intent={}",
        next.source().wireName(),
        next.generation(),
        next.intent());
    return true;
  }

  /**
   * The intent for the GPUs present (DESIGN section 1, replaced GPUs): a named config whose
   * recorded GPU UUIDs differ from {@code present} at some index applies to the GPUs present, as a
   * new generation from the same source, made for their UUIDs and saying once (here in the log, in
   * its {@link Desired#replaced} for the reason and the Event) which GPU was replaced. An explicit
   * per-GPU layout stays bound to its GPUs: the reconcile finds a replaced one {@code infeasible}.
   */
  public synchronized Desired followGpus(NodeObserver.PresentGpus present) {
    Desired now = current;
    if (!now.followsReplacedGpus() || now.gpuUuids().isEmpty()) {
      return now;
    }
    var replaced = GpuReplacements.between(now.gpuUuids(), present.uuids());
    if (replaced.isEmpty()) {
      return now;
    }
    Desired next =
        now.forReplacedGpus(
            GpuReplacements.present(now.gpuUuids(), present.uuids(), present.count()), replaced);
    store.save(next);
    current = next;
    replaced.forEach(
        (gpu, sentence) ->
            log.info(
                "gpu={} {}: intent source={} generation={} intent={} applies to it",
                gpu,
                sentence,
                next.source().wireName(),
                next.generation(),
                next.intent()));
    return next;
  }

  /**
   * Records the GPU UUIDs the intent was first resolved against: those of indexes not recorded yet
   * for this generation (a GPU NVML could not observe at first is added once it is observed); an
   * index already recorded keeps its UUID.
   */
  public synchronized void recordUuids(long generation, java.util.Map<Integer, String> uuids) {
    if (current.generation() != generation) {
      return;
    }
    var merged = new java.util.TreeMap<>(uuids);
    merged.putAll(current.gpuUuids());
    if (!merged.equals(current.gpuUuids())) {
      current = current.resolvedAgainst(merged);
      store.save(current);
    }
  }
}
