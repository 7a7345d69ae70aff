package io.migd.cdi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads the MIG capability nodes of GPU and compute instances from the proc tree, as NVIDIA's
 * driver publishes them: the {@code nvidia-caps} major in {@code <proc>/devices}, and each
 * instance's minor and mode in {@code
 * <proc>/driver/nvidia/capabilities/gpu<minor>/mig/gi<gi>/access} and {@code
 * .../gi<gi>/ci<ci>/access} ({@code DeviceFileMinor: N}, {@code DeviceFileMode: M}). Read at each
 * call: the driver creates the files with the GPU's MIG state, and they cost little to read.
 */
public final class CapabilityNodes {
  private static final String CAPS_DEVICE = "nvidia-caps";
  private static final String MINOR_KEY = "DeviceFileMinor";
  private static final String MODE_KEY = "DeviceFileMode";

  private final Path procRoot;

  /** Nodes read under {@code procRoot}, {@code /proc} on a node ({@code migd.dra.proc-root}). */
  public CapabilityNodes(Path procRoot) {
    this.procRoot = procRoot;
  }

  /** The capability node of a GPU instance. */
  public CapabilityNode gpuInstance(int gpuMinor, int gpuInstanceId) {
    return node(gpuInstanceDir(gpuMinor, gpuInstanceId).resolve("access"));
  }

  /** The capability node of a compute instance of a GPU instance. */
  public CapabilityNode computeInstance(int gpuMinor, int gpuInstanceId, int computeInstanceId) {
    return node(
        gpuInstanceDir(gpuMinor, gpuInstanceId)
            .resolve("ci" + computeInstanceId)
            .resolve("access"));
  }

  /** The major of {@code nvidia-caps} in {@code <proc>/devices}. */
  public int capsMajor() {
    Path devices = procRoot.resolve("devices");
    boolean character = false;
    for (String line : lines(devices)) {
      String text = line.strip();
      if (text.endsWith(":")) {
        character = text.equals("Character devices:");
        continue;
      }
      String[] fields = text.split("\\s+");
      if (character && fields.length == 2 && fields[1].equals(CAPS_DEVICE)) {
        return number(devices, "the major of " + CAPS_DEVICE, fields[0]);
      }
    }
    throw malformed(devices, "lists no character device " + CAPS_DEVICE);
  }

  private Path gpuInstanceDir(int gpuMinor, int gpuInstanceId) {
    return procRoot
        .resolve("driver/nvidia/capabilities")
        .resolve("gpu" + gpuMinor)
        .resolve("mig")
        .resolve("gi" + gpuInstanceId);
  }

  private CapabilityNode node(Path access) {
    int major = capsMajor();
    List<String> lines = lines(access);
    int minor =
        value(lines, access, MINOR_KEY)
            .orElseThrow(() -> malformed(access, "has no " + MINOR_KEY + " line"));
    int mode =
        value(lines, access, MODE_KEY)
            .orElseThrow(() -> malformed(access, "has no " + MODE_KEY + " line"));
    return new CapabilityNode(major, minor, mode);
  }

  private static OptionalInt value(List<String> lines, Path file, String key) {
    for (String line : lines) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
        return OptionalInt.of(number(file, key, line.substring(colon + 1).strip()));
      }
    }
    return OptionalInt.empty();
  }

  private static int number(Path file, String what, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw malformed(file, "has " + what + " \"" + text + "\", not a number");
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (NoSuchFileException e) {
      throw new UncheckedIOException(
          "reading MIG capability nodes: "
              + file
              + " does not exist (is the driver loaded, and"
              + " migd.dra.proc-root the host's /proc?)",
          e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading MIG capability nodes from " + file, e);
    }
  }

  private static UncheckedIOException malformed(Path file, String why) {
    return new UncheckedIOException(
        "reading MIG capability nodes: " + file + " " + why, new IOException(file + " " + why));
  }
}
