package io.migd.devices;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.profiles.deviceplugin.NvidiaResources;

/** The kubelet resource names migd advertises, in NVIDIA's style. */
public final class ResourceNames {
  /** Whole GPUs, their replicas, and MIG slices under the {@code single} strategy. */
  public static final String GPU = NvidiaResources.GPU;

  private ResourceNames() {}

  /** {@code nvidia.com/mig-<profile>}, with {@code +} written {@code .} ({@code 1g.10gb.me}). */
  public static String mig(ProfileName profile) {
    return NvidiaResources.mig(profile);
  }

  /**
   * The resource the replicas of a device shared this way are advertised under: {@code resource},
   * or {@code <resource>.shared} where NVIDIA's device-plugin config renames it.
   */
  public static String offered(String resource, Sharing sharing) {
    return sharing.offer().renamed() ? NvidiaResources.shared(resource) : resource;
  }

  /**
   * The name without its domain, for socket files: {@code gpu}, {@code mig-1g.10gb}. Resource names
   * hold only letters, digits, {@code -}, {@code _} and {@code .} after the domain.
   */
  public static String localName(String resource) {
    return resource.substring(resource.indexOf('/') + 1);
  }
}
