package io.migd.reconcile;

import io.migd.layout.SharingDefaults;
import io.migd.profiles.MigConfig;
import java.util.Optional;

/**
 * Finds the named configs of the config file; says why none can be found when it is unusable (the
 * config file, or NVIDIA's device-plugin config of the node); gives the sharing that device-plugin
 * config asks for where a config item does not say its own.
 */
@FunctionalInterface
public interface ConfigLookup {
  /** The config named {@code name}, if the file has one. */
  Optional<MigConfig> config(String name);

  /** Why the file yields no config at all (it could not be read or parsed); empty when it was. */
  default Optional<String> problem() {
    return Optional.empty();
  }

  /** The sharing NVIDIA's device-plugin config gives; {@link SharingDefaults#NONE} without one. */
  default SharingDefaults sharingDefaults() {
    return SharingDefaults.NONE;
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
