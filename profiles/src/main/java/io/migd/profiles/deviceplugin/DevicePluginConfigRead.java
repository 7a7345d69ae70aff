package io.migd.profiles.deviceplugin;

import java.util.List;
import java.util.Objects;

/** What reading one NVIDIA device-plugin config gave: a config migd takes, or why it is refused. */
public sealed interface DevicePluginConfigRead {
  /**
   * The config is taken; {@code warnings} say, one sentence each, what of it migd ignores (as
   * NVIDIA's plugin ignores it, or because migd does not offer it).
   *
   * @param config what migd takes
   * @param warnings one per ignored key or value, naming it
   */
  record Valid(DevicePluginConfig config, List<String> warnings) implements DevicePluginConfigRead {
    /** Copies the warnings. */
    public Valid {
      Objects.requireNonNull(config);
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * The config is refused, as NVIDIA's plugin refuses it.
   *
   * @param reason names the config and the key, for example {@code device-plugin config "ts.yaml":
   *     "sharing.timeSlicing.resources[0].replicas" must be an integer >= 2, got 1}
   */
  record Refused(String reason) implements DevicePluginConfigRead {
    /** Checks the reason is there. */
    public Refused {
      Objects.requireNonNull(reason);
    }
  }
}
