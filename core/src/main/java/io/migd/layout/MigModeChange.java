package io.migd.layout;

import io.migd.nvml.GpuArchitecture;
import io.migd.profiles.GpuModelCatalog;

/**
 * How a GPU's MIG mode changes (DESIGN section 2, NVML first): decided once per GPU from NVML's
 * {@code nvmlDeviceGetArchitecture}, never from the catalogue, and read by every path that depends
 * on it (the planner, the DRA pool, prepare).
 */
public enum MigModeChange {
  /**
   * Hopper and later: the mode changes at once, so in DRA mode a dynamic GPU's mode follows its
   * claims and the GPU can be handed out whole.
   */
  AT_ONCE,
  /**
   * Ampere, an architecture NVML reports as unknown, or a GPU whose {@code nvmlDeviceSetMigMode}
   * answered {@code RESET_REQUIRED} (a pass-through VM): a change needs a GPU reset or a reboot, so
   * the reconcile loop enables MIG on a dynamic GPU before its devices are published, and the GPU
   * is never handed out whole.
   */
  NEEDS_RESET;

  /** The rule for the architecture NVML reports. */
  public static MigModeChange of(GpuArchitecture architecture) {
    return architecture != GpuArchitecture.UNKNOWN
            && architecture.value() >= GpuArchitecture.HOPPER.value()
        ? AT_ONCE
        : NEEDS_RESET;
  }

  /**
   * The rule for a GPU known only by its PCI device id, as tests and replays build one: the
   * built-in catalogue's architecture, {@link #NEEDS_RESET} for a model it lacks.
   */
  static MigModeChange ofCatalogued(int pciDeviceId) {
    return GpuModelCatalog.builtIn()
        .byPciDeviceId(pciDeviceId)
        .map(m -> of(GpuArchitecture.of(m.architecture())))
        .orElse(NEEDS_RESET);
  }
}
