package io.migd.layout;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.profiles.deviceplugin.DevicePluginConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * The sharing NVIDIA's device-plugin config of this node gives (DESIGN section 13), for the GPUs
 * and slices a config item does not share itself: whole GPUs by {@code nvidia.com/gpu}, the slices
 * of a profile by {@code nvidia.com/mig-<profile>}, or by {@code nvidia.com/gpu} when slices are
 * advertised as GPUs ({@code single}).
 *
 * @param source what the config is called in reasons: its file, and its key in a directory
 * @param config the config
 * @param slicesAreGpus whether MIG slices are advertised as {@code nvidia.com/gpu}
 */
public record SharingDefaults(String source, DevicePluginConfig config, boolean slicesAreGpus) {
  /** No device-plugin config: a config item's own sharing is all there is. */
  public static final SharingDefaults NONE =
      new SharingDefaults("", DevicePluginConfig.EMPTY, false);

  /** Checks every part is there. */
  public SharingDefaults {
    Objects.requireNonNull(source);
    Objects.requireNonNull(config);
  }

  /** How a whole GPU is shared, unless its item says otherwise. */
  public Optional<Sharing> wholeGpu() {
    return config.wholeGpus();
  }

  /** How the slices of a profile are shared, unless their item says otherwise. */
  public Optional<Sharing> slices(ProfileName profile) {
    return config.slices(profile, slicesAreGpus);
  }
}
