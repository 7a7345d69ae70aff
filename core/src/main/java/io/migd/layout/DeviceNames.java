package io.migd.layout;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of the pool's devices, as NVIDIA's DRA driver writes them, so claims and classes
 * written for it select migd's devices: {@code gpu-<minor>} for a whole GPU, {@code
 * gpu-<minor>-mig-<profile>-<giProfileId>-<start>} for a MIG placement, and {@code ...-ci<ciStart>}
 * for a static compute instance that does not span its GPU instance.
 */
public final class DeviceNames {
  private static final Pattern WHOLE = Pattern.compile("gpu-(0|[1-9][0-9]*)");
  private static final Pattern MIG =
      Pattern.compile(
          "gpu-(0|[1-9][0-9]*)-mig-([a-z0-9-]+)-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)"
              + "(?:-ci(0|[1-9][0-9]*))?");

  private DeviceNames() {}

  /** A device name taken apart. */
  public sealed interface Parsed {
    /** The GPU's minor number. */
    int minor();

    /** {@code gpu-<minor>}. */
    record WholeGpu(int minor) implements Parsed {}

    /**
     * A MIG placement: a GPU instance with one compute instance spanning it.
     *
     * @param profileToken the profile as the name writes it ({@code 1g10gb-me}), see {@link
     *     #profileToken}
     */
    record Mig(int minor, String profileToken, int giProfileId, int start) implements Parsed {}

    /**
     * A static compute instance that does not span its GPU instance.
     *
     * @param profileToken the compute-instance profile as the name writes it ({@code 1c4g20gb})
     * @param ciStart the compute instance's start in its GPU instance, in compute slices
     */
    record ComputeInstance(int minor, String profileToken, int giProfileId, int start, int ciStart)
        implements Parsed {}
  }

  /** What a shareable twin's name adds to its device's name. */
  public static final String SHARED_SUFFIX = "-shared";

  /**
   * The shareable twin of {@code device}: {@code gpu-0-shared}, {@code
   * gpu-0-mig-1g10gb-19-0-shared}.
   */
  public static String shared(String device) {
    return device + SHARED_SUFFIX;
  }

  /** The device a twin shares, when {@code name} is a twin's name. */
  public static Optional<String> sharedDevice(String name) {
    return name.endsWith(SHARED_SUFFIX)
        ? Optional.of(name.substring(0, name.length() - SHARED_SUFFIX.length()))
        : Optional.empty();
  }

  /** {@code gpu-<minor>}. */
  public static String wholeGpu(int minor) {
    return "gpu-" + minor;
  }

  /** {@code gpu-<minor>-mig-<profile>-<giProfileId>-<start>}: {@code gpu-0-mig-1g10gb-19-0}. */
  public static String mig(int minor, String profile, int giProfileId, int start) {
    return "gpu-" + minor + "-mig-" + profileToken(profile) + "-" + giProfileId + "-" + start;
  }

  /**
   * A compute instance that does not span its GPU instance: {@code gpu-0-mig-1c4g20gb-5-0-ci2} for
   * compute-instance profile {@code 1c.4g.20gb} at compute slice 2 of the {@code 4g.20gb} GPU
   * instance (profile id 5) at memory slice 0.
   */
  public static String computeInstance(
      int minor, String ciProfile, int giProfileId, int start, int ciStart) {
    return mig(minor, ciProfile, giProfileId, start) + "-ci" + ciStart;
  }

  /**
   * A profile name as a device name writes it: lower case, {@code .} removed, {@code +} and every
   * other character outside {@code [a-z0-9-]} as {@code -} ({@code 1g.10gb+me} is {@code
   * 1g10gb-me}).
   */
  public static String profileToken(String profile) {
    var token = new StringBuilder(profile.length());
    for (char c : profile.toLowerCase(Locale.ROOT).toCharArray()) {
      if (c == '.') {
        continue;
      }
      token.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ? c : '-');
    }
    return token.toString();
  }

  /** The parts of a device name migd writes, or empty when it is not one. */
  public static Optional<Parsed> parse(String name) {
    Matcher whole = WHOLE.matcher(name);
    if (whole.matches()) {
      return Optional.of(new Parsed.WholeGpu(Integer.parseInt(whole.group(1))));
    }
    Matcher mig = MIG.matcher(name);
    if (!mig.matches()) {
      return Optional.empty();
    }
    int minor = Integer.parseInt(mig.group(1));
    int giProfileId = Integer.parseInt(mig.group(3));
    int start = Integer.parseInt(mig.group(4));
    return Optional.of(
        mig.group(5) == null
            ? new Parsed.Mig(minor, mig.group(2), giProfileId, start)
            : new Parsed.ComputeInstance(
                minor, mig.group(2), giProfileId, start, Integer.parseInt(mig.group(5))));
  }
}
