package io.migd.dra;

import io.migd.kubelet.UnixSockets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and as whom the DRA plugin serves.
 *
 * @param driverName the DRA driver name, a DNS subdomain of at most 63 characters
 * @param registryDirectory the kubelet's plugin registry, which it watches for sockets
 * @param pluginDirectory the directory of the DRA socket; the same path inside and outside the
 *     container, since the kubelet dials the path the plugin reports
 * @param socketCheck how often the plugin checks that its sockets are still there
 */
public record DraPluginSettings(
    String driverName, Path registryDirectory, Path pluginDirectory, Duration socketCheck) {
  public static final String DEFAULT_DRIVER = "gpu.nvidia.com";
  public static final Path DEFAULT_REGISTRY = Path.of("/var/lib/kubelet/plugins_registry");
  public static final Path PLUGINS = Path.of("/var/lib/kubelet/plugins");
  public static final Duration DEFAULT_SOCKET_CHECK = Duration.ofSeconds(1);

  // a DNS subdomain, as the ResourceSlice's driver field must be
  private static final Pattern DRIVER =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  public DraPluginSettings {
    Objects.requireNonNull(driverName);
    if (driverName.length() > 63 || !DRIVER.matcher(driverName).matches()) {
      throw new IllegalArgumentException(
          "the DRA driver name \""
              + driverName
              + "\" must be a DNS subdomain of at most 63 characters, like gpu.nvidia.com");
    }
    registryDirectory = registryDirectory.toAbsolutePath();
    pluginDirectory = pluginDirectory.toAbsolutePath();
    if (socketCheck.isNegative() || socketCheck.isZero()) {
      throw new IllegalArgumentException("the socket check interval must be positive");
    }
    UnixSockets.checkLength(registrationSocket(registryDirectory, driverName));
    UnixSockets.checkLength(draSocket(pluginDirectory));
  }

  /** The kubelet's default directories for {@code driverName}. */
  public static DraPluginSettings defaults(String driverName) {
    return new DraPluginSettings(
        driverName, DEFAULT_REGISTRY, PLUGINS.resolve(driverName), DEFAULT_SOCKET_CHECK);
  }

  /** {@code <registry>/<driver>-reg.sock}, where the kubelet finds the plugin. */
  public Path registrationSocket() {
    return registrationSocket(registryDirectory, driverName);
  }

  /** {@code <plugin directory>/dra.sock}, serving the DRA and health services. */
  public Path draSocket() {
    return draSocket(pluginDirectory);
  }

  private static Path registrationSocket(Path registryDirectory, String driverName) {
    return registryDirectory.resolve(driverName + "-reg.sock");
  }

  private static Path draSocket(Path pluginDirectory) {
    return pluginDirectory.resolve("dra.sock");
  }
}
