package io.migd.app;

import io.migd.cdi.GpuCdiSpec;
import io.migd.claims.ClaimSettings;
import io.migd.reconcile.MisconfiguredPathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Checks, before {@code serve} starts anything, every path property the configured surfaces use, as
 * their use requires: a directory migd writes into must be one (or be creatable under a writable
 * directory), a path named to the kubelet or the container runtime must be absolute, a file migd
 * reads must be readable. A path that cannot work is {@link MisconfiguredPathException} (exit 2),
 * naming the property, its value and what is wrong.
 *
 * <p>Not here, since they fail as the contract says elsewhere: {@code migd.state-dir} and {@code
 * migd.nvml.*} are the environment (exit 3, the state lock and the NVML loader name them), the
 * config file, {@code migd.auth.token-file} and the live {@code migd.device-plugin-config} are read
 * and refused by their own readers. A missing {@code migd.kubelet.device-plugin-dir} stays a
 * warning (a node without a kubelet), a missing PodResources socket the kubelet's outage.
 */
public final class PathProperties {
  private PathProperties() {}

  /**
   * @throws MisconfiguredPathException for the first path property that cannot work
   * @throws io.migd.cdi.CdiSetupException when CDI's driver root or hook is missing
   */
  public static void check(MigdProperties properties) {
    var kubelet = properties.kubelet();
    if (kubelet.enabled()) {
      directory("migd.sysfs-root", properties.sysfsRoot());
      notAnythingButASocket("migd.kubelet.pod-resources-socket", kubelet.podResourcesSocket());
      switch (kubelet.mode()) {
        case DEVICE_PLUGIN ->
            writableIfPresent(
                "migd.kubelet.device-plugin-dir",
                kubelet.devicePluginDir(),
                "migd serves its device plugin sockets there");
        case DRA -> checkDra(properties.dra());
      }
    }
    var cdi = properties.cdi();
    if (cdi.enabled()) {
      absolute("migd.cdi.dir", cdi.dir(), "the container runtime reads the specs there");
      creatable("migd.cdi.dir", cdi.dir(), "migd writes the CDI specs there");
      GpuCdiSpec.check(CdiConfiguration.settings(cdi));
    }
    var mps = properties.mps().root();
    absolute("migd.mps.root", mps, "MPS clients mount it by its path on the node");
    if (Files.exists(mps) && !Files.isDirectory(mps)) {
      throw refused("migd.mps.root", mps + " is not a directory");
    }
  }

  private static void checkDra(DraProperties dra) {
    creatable(
        "migd.dra.registry-dir",
        dra.registryDir(),
        "migd's registration socket for the kubelet goes there");
    String pluginDir = dra.pluginDir().isBlank() ? "migd.dra.driver-name" : "migd.dra.plugin-dir";
    absolute(pluginDir, dra.pluginDirectory(), "the registration names the DRA socket by its path");
    creatable(pluginDir, dra.pluginDirectory(), "migd's DRA socket goes there");
    directory("migd.dra.proc-root", dra.procRoot());
    Path bootId = ClaimSettings.bootIdUnder(dra.procRoot());
    if (!Files.isRegularFile(bootId) || !Files.isReadable(bootId)) {
      throw refused(
          "migd.dra.proc-root",
          bootId
              + " cannot be read; it must name the host's /proc (the checkpoint is kept per boot)");
    }
  }

  private static void absolute(String property, Path path, String why) {
    if (!path.isAbsolute()) {
      throw refused(property, path + " is not an absolute path; " + why);
    }
  }

  private static void directory(String property, Path path) {
    if (!Files.isDirectory(path)) {
      throw refused(
          property, path + (Files.exists(path) ? " is not a directory" : " does not exist"));
    }
  }

  private static void writableIfPresent(String property, Path dir, String why) {
    if (Files.exists(dir)) {
      creatable(property, dir, why);
    }
  }

  /** The directory, or the closest existing one above it where migd creates it, is writable. */
  private static void creatable(String property, Path dir, String why) {
    Path existing = dir.toAbsolutePath();
    while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS) && existing.getParent() != null) {
      existing = existing.getParent();
    }
    String what =
        existing.equals(dir.toAbsolutePath())
            ? dir.toString()
            : dir + " cannot be created: " + existing;
    if (!Files.isDirectory(existing)) {
      throw refused(property, what + " is not a directory; " + why);
    }
    if (!Files.isWritable(existing)) {
      throw refused(property, what + " is not writable; " + why);
    }
  }

  /** A socket that is not there yet is the kubelet's to make; anything else in its place is not. */
  private static void notAnythingButASocket(String property, Path socket) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(socket, BasicFileAttributes.class);
    } catch (IOException e) {
      return;
    }
    if (!attributes.isOther()) {
      throw refused(
          property,
          socket
              + " is a "
              + (attributes.isDirectory() ? "directory" : "file")
              + ", not the kubelet's PodResources socket");
    }
  }

  private static MisconfiguredPathException refused(String property, String problem) {
    return new MisconfiguredPathException(property, problem, null);
  }
}
