package io.migd.reconcile;

import io.migd.profiles.MigConfig;
import java.util.Optional;

/** Finds the named configs of the config file; says why none can be found when it is unusable. */
@FunctionalInterface
public interface ConfigLookup {
  /** The config named {@code name}, if the file has one. */
  Optional<MigConfig> config(String name);

  /** Why the file yields no config at all (it could not be read or parsed); empty when it was. */
  default Optional<String> problem() {
    return Optional.empty();
  }

  /**
   * The configs as {@code desired} sees them: the file as it is now, unless the intent keeps the
   * content it was made with (a REST intent naming a config: an edit of the file changes nothing,
   * DESIGN section 13).
   */
  default ConfigLookup forIntent(Desired desired) {
    return this;
  }
}
