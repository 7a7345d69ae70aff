package io.migd.profiles.deviceplugin;

import io.migd.profiles.ProfileName;
import io.migd.profiles.ProfileNameException;
import java.util.Optional;

/**
 * The kubelet resource names NVIDIA's device plugin advertises, written once: {@code
 * nvidia.com/gpu}, {@code nvidia.com/mig-<profile>} (a {@code +} of the profile written {@code .})
 * and the {@code .shared} rename of a shared resource.
 */
public final class NvidiaResources {
  /** Whole GPUs, their replicas, and MIG slices under the {@code single} strategy. */
  public static final String GPU = "nvidia.com/gpu";

  /** The suffix of a renamed shared resource ({@code renameByDefault}). */
  public static final String SHARED_SUFFIX = ".shared";

  private static final String DOMAIN = "nvidia.com/";
  private static final String MIG_PREFIX = DOMAIN + "mig-";

  private NvidiaResources() {}

  /**
   * The resource of the MIG slices of a profile.
   *
   * @param profile the profile
   * @return {@code nvidia.com/mig-<profile>}, with {@code +} written {@code .} ({@code
   *     nvidia.com/mig-1g.10gb.me})
   */
  public static String mig(ProfileName profile) {
    return MIG_PREFIX + profile.toString().replace('+', '.');
  }

  /**
   * The name a shared resource is renamed to.
   *
   * @param resource a resource name
   * @return {@code <resource>.shared}
   */
  public static String shared(String resource) {
    return resource + SHARED_SUFFIX;
  }

  /**
   * The profile a MIG resource name stands for.
   *
   * @param resource a resource name such as {@code nvidia.com/mig-1g.10gb}
   * @return the profile, or empty when the name is not {@code nvidia.com/mig-<profile>} of a
   *     well-formed profile
   */
  public static Optional<ProfileName> profileOf(String resource) {
    if (!resource.startsWith(MIG_PREFIX)) {
      return Optional.empty();
    }
    String text = resource.substring(MIG_PREFIX.length());
    // the resource writes "1g.10gb+me" as "1g.10gb.me": the first dot after "gb" was a "+"
    int gb = text.indexOf("gb.");
    for (String candidate :
        gb < 0
            ? new String[] {text}
            : new String[] {text, text.substring(0, gb + 2) + "+" + text.substring(gb + 3)}) {
      try {
        ProfileName profile = ProfileName.parse(candidate);
        if (mig(profile).equals(resource)) {
          return Optional.of(profile);
        }
      } catch (ProfileNameException e) {
        // not this reading; the other one may be it
      }
    }
    return Optional.empty();
  }

  /**
   * A resource name as NVIDIA's plugin reads one: without a domain, {@code nvidia.com/} is meant.
   *
   * @param name the name as written
   * @return the name with its domain
   */
  static String withDomain(String name) {
    return name.contains("/") ? name : DOMAIN + name;
  }
}
