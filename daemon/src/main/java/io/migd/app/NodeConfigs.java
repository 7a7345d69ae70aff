package io.migd.app;

import io.migd.layout.SharingDefaults;
import io.migd.profiles.MigConfig;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import java.util.Optional;

/**
 * What the reconcile looks named configs up in: the config file as it is now, and NVIDIA's
 * device-plugin config of the node for the sharing a config item does not say itself. Either one's
 * problem fails the GPUs a named config selects, and nothing on them changes (DESIGN section 13).
 */
record NodeConfigs(ConfigLookup file, DevicePluginConfigSource devicePlugin)
    implements ConfigLookup {
  @Override
  public Optional<MigConfig> config(String name) {
    return file.config(name);
  }

  @Override
  public Optional<String> problem() {
    return file.problem().or(devicePlugin::problem);
  }

  @Override
  public SharingDefaults sharingDefaults() {
    return devicePlugin.defaults();
  }

  /** The file's configs as the intent sees them (a REST intent keeps its content), same sharing. */
  @Override
  public ConfigLookup forIntent(Desired desired) {
    return new NodeConfigs(file.forIntent(desired), devicePlugin);
  }
}
