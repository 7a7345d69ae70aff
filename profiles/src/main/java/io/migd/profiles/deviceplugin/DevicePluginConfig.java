package io.migd.profiles.deviceplugin;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What migd takes from one NVIDIA device-plugin config ({@code version: v1}): the MIG strategy of
 * {@code flags.migStrategy} and the sharing of each resource {@code sharing.timeSlicing} or {@code
 * sharing.mps} names, each carrying its replicas and how they are offered ({@link Sharing.Offer}).
 *
 * @param migStrategy {@code none}, {@code single} or {@code mixed}; empty when the config does not
 *     say
 * @param resources the sharing of each resource, by resource name ({@code nvidia.com/gpu}, {@code
 *     nvidia.com/mig-1g.10gb}), in the order the config names them
 */
public record DevicePluginConfig(String migStrategy, Map<String, Sharing> resources) {
  /** A config that says nothing: no strategy, nothing shared. */
  public static final DevicePluginConfig EMPTY = new DevicePluginConfig("", Map.of());

  /** Copies the map, keeping its order. */
  public DevicePluginConfig {
    Objects.requireNonNull(migStrategy);
    resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
  }

  /**
   * How whole GPUs are shared ({@code nvidia.com/gpu}).
   *
   * @return the sharing, or empty when the config does not share whole GPUs
   */
  public Optional<Sharing> wholeGpus() {
    return Optional.ofNullable(resources.get(NvidiaResources.GPU));
  }

  /**
   * How the MIG slices of a profile are shared: {@code nvidia.com/mig-<profile>}, or {@code
   * nvidia.com/gpu} when {@code slicesAreGpus} (the {@code single} strategy advertises slices as
   * {@code nvidia.com/gpu}).
   *
   * @param profile the slices' profile
   * @param slicesAreGpus whether slices are advertised as {@code nvidia.com/gpu}
   * @return the sharing, or empty when the config does not share these slices
   */
  public Optional<Sharing> slices(ProfileName profile, boolean slicesAreGpus) {
    return Optional.ofNullable(
        resources.get(slicesAreGpus ? NvidiaResources.GPU : NvidiaResources.mig(profile)));
  }
}
