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
}
