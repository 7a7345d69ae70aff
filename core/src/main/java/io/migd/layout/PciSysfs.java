package io.migd.layout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Where a PCI device sits, from sysfs: its PCIe root complex (the {@code pci<domain>:<bus>}
 * component of the path {@code <sysfs>/bus/pci/devices/<bus id>} links to) and its NUMA node
 * ({@code numa_node}, -1 when the platform does not say). Either is empty when sysfs lacks it.
 * DESIGN.md section 13 ("Topology") reads the NUMA node of the device plugin's devices the same
 * way.
 */
public final class PciSysfs {
  private static final Pattern ROOT_COMPLEX = Pattern.compile("pci[0-9a-f]{4}:[0-9a-f]{2}");

  private final Path sysfsRoot;

  /** Sysfs at {@code sysfsRoot}, {@code /sys} on a node ({@code migd.sysfs-root}). */
  public PciSysfs(Path sysfsRoot) {
    this.sysfsRoot = sysfsRoot;
  }

  /**
   * The sysfs form of NVML's bus id: lower case, a 4-digit domain ({@code 00000000:3B:00.0} is
   * {@code 0000:3b:00.0}).
   */
  public static String busId(String nvmlBusId) {
    String id = nvmlBusId.strip().toLowerCase(Locale.ROOT);
    int colon = id.indexOf(':');
    if (colon < 0 || id.indexOf(':', colon + 1) < 0) {
      throw new IllegalArgumentException(
          "PCI bus id \"" + nvmlBusId + "\" is not domain:bus:dev.fn");
    }
    int domain = Integer.parseUnsignedInt(id.substring(0, colon), 16);
    return String.format(Locale.ROOT, "%04x", domain) + id.substring(colon);
  }

  /** The PCIe root complex of a device by its sysfs bus id, {@code pci0000:3a}. */
  public Optional<String> pcieRoot(String busId) throws IOException {
    Path device = device(busId);
    if (!Files.exists(device)) {
      return Optional.empty();
    }
    Path sysfs = sysfsRoot.toRealPath();
    Path real = device.toRealPath();
    Path inside = real.startsWith(sysfs) ? sysfs.relativize(real) : real;
    for (Path part : inside) {
      if (ROOT_COMPLEX.matcher(part.toString()).matches()) {
        return Optional.of(part.toString());
      }
    }
    return Optional.empty();
  }

  /** The NUMA node of a device by its sysfs bus id; empty when sysfs says -1 or nothing. */
  public OptionalInt numaNode(String busId) throws IOException {
    Path file = device(busId).resolve("numa_node");
    if (!Files.isRegularFile(file)) {
      return OptionalInt.empty();
    }
    String text = Files.readString(file).strip();
    try {
      int node = Integer.parseInt(text);
      return node < 0 ? OptionalInt.empty() : OptionalInt.of(node);
    } catch (NumberFormatException e) {
      throw new IOException(file + " holds \"" + text + "\", not a NUMA node", e);
    }
  }

  private Path device(String busId) {
    return sysfsRoot.resolve("bus/pci/devices").resolve(busId);
  }
}
