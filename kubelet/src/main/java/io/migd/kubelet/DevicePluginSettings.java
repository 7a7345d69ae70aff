package io.migd.kubelet;

import io.migd.mps.MpsPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the node's device plugin runs: the kubelet's device plugin directory ({@code
 * migd.kubelet.device-plugin-dir}), whether {@code Allocate} names CDI devices ({@code
 * migd.cdi.enabled}), the longest wait between two registration attempts, and where the MPS pipe
 * directories are ({@code migd.mps.root}) for {@code Allocate} of MPS replicas.
 */
public record DevicePluginSettings(
    Path directory, boolean cdiEnabled, Duration maxRegistrationBackoff, MpsPaths mps) {
  /** The kubelet's default device plugin directory. */
  public static final Path DEFAULT_DIRECTORY = Path.of("/var/lib/kubelet/device-plugins");

  /** The first wait after a failed registration; it doubles up to the maximum. */
  public static final Duration FIRST_REGISTRATION_BACKOFF = Duration.ofMillis(100);

  /** Checks the values are present and the maximum is not below the first wait. */
  public DevicePluginSettings {
    Objects.requireNonNull(directory);
    Objects.requireNonNull(maxRegistrationBackoff);
    Objects.requireNonNull(mps);
    if (maxRegistrationBackoff.compareTo(FIRST_REGISTRATION_BACKOFF) < 0) {
      throw new IllegalArgumentException(
          "the longest registration backoff "
              + maxRegistrationBackoff
              + " is below the first one, "
              + FIRST_REGISTRATION_BACKOFF);
    }
  }

  /** Settings with MPS under its default root. */
  public DevicePluginSettings(Path directory, boolean cdiEnabled, Duration maxRegistrationBackoff) {
    this(directory, cdiEnabled, maxRegistrationBackoff, new MpsPaths(MpsPaths.DEFAULT_ROOT));
  }

  /** The kubelet's registration socket in the directory. */
  public Path kubeletSocket() {
    return directory.resolve("kubelet.sock");
  }
}
