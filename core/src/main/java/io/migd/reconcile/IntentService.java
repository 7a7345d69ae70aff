package io.migd.reconcile;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current intent and persists every change. At start the persisted intent wins; a config
 * named by {@code migd.config} is the intent only when nothing else was given (no intent persisted,
 * or one that came from the file itself).
 */
public final class IntentService {
  private static final Logger log = LoggerFactory.getLogger(IntentService.class);

  private final IntentStore store;
  private volatile Desired current;

  /** The config {@code migd.config} names and a digest of its content in the config file. */
  public record FileConfig(String name, String digest) {}

  /**
   * Loads the persisted intent; {@code fileConfig} is the config {@code migd.config} names, empty
   * when unset. A different name, or different content under the same name, is a new generation.
   */
  public IntentService(IntentStore store, Optional<FileConfig> fileConfig) {
    this.store = store;
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
                  "",
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

  /** Records the GPU UUIDs the intent was first resolved against. */
  public synchronized void recordUuids(long generation, java.util.Map<Integer, String> uuids) {
    if (current.generation() == generation && current.gpuUuids().isEmpty() && !uuids.isEmpty()) {
      current = current.resolvedAgainst(uuids);
      store.save(current);
    }
  }
}
