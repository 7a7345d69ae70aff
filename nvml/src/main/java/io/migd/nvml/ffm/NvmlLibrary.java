package io.migd.nvml.ffm;

import io.migd.nvml.NvmlLoadException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One loaded copy of an NVML library (the driver's {@code libnvidia-ml.so.1} or a simulated one).
 * This is the only place that loads it. A library stays loaded for the life of the process.
 */
public final class NvmlLibrary {
  /** The driver's library name, found through the dynamic linker's search path. */
  public static final String DEFAULT_LOCATION = "libnvidia-ml.so.1";

  private final String location;
  final nvml_h raw;

  private NvmlLibrary(String location, SymbolLookup lookup) {
    this.location = location;
    this.raw = new nvml_h(lookup);
  }

  /**
   * Loads the library at {@code location}: a path (anything with a '/') or a name the dynamic
   * linker looks up. Fails with {@link NvmlLoadException} saying what was tried and what to do.
   */
  public static NvmlLibrary load(String location) {
    requireNativeAccess();
    try {
      SymbolLookup lookup;
      if (location.contains("/")) {
        Path path = Path.of(location);
        if (!Files.isRegularFile(path)) {
          throw new NvmlLoadException(
              "cannot load the NVML library: "
                  + path.toAbsolutePath()
                  + " does not exist. Set migd.nvml.library (env MIGD_NVML_LIBRARY) to the path of"
                  + " the driver's libnvidia-ml.so.1, or use --simulate=MODEL to run without a"
                  + " GPU.");
        }
        lookup = SymbolLookup.libraryLookup(path, Arena.global());
      } else {
        lookup = SymbolLookup.libraryLookup(location, Arena.global());
      }
      return new NvmlLibrary(location, lookup);
    } catch (IllegalArgumentException e) {
      throw new NvmlLoadException(
          "cannot load the NVML library '"
              + location
              + "' ("
              + e.getMessage()
              + "). Install the NVIDIA driver on this node, or set migd.nvml.library (env"
              + " MIGD_NVML_LIBRARY) to the path of libnvidia-ml.so.1, or use --simulate=MODEL to"
              + " run without a GPU.",
          e);
    }
  }

  /**
   * JDK 25 only warns when a module without native access calls into C, and then enables it; migd
   * fails instead, with the flag to add. Call it before anything native runs (extracting the
   * simulated library makes a restricted call too), or the check passes too late.
   *
   * @throws NvmlLoadException when native access is not enabled
   */
  public static void requireNativeAccess() {
    if (!NvmlLibrary.class.getModule().isNativeAccessEnabled()) {
      throw new NvmlLoadException(
          "native access is not enabled for migd: run java with --enable-native-access=ALL-UNNAMED"
              + " (the migd jar's manifest sets Enable-Native-Access; a custom classpath launch"
              + " needs the flag).");
    }
  }

  /** Where the library was loaded from, as configured. */
  public String location() {
    return location;
  }

  /** Whether the library exports a symbol (an older driver lacks newer functions). */
  public boolean hasSymbol(String symbol) {
    return raw.hasSymbol(symbol);
  }

  @Override
  public String toString() {
    return "NvmlLibrary[" + location + "]";
  }
}
