package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;

/**
 * Whether a GPU is turning from dynamic to static (DESIGN section 12: it withdraws its unprepared
 * devices, then stays {@code blocked} until no claim is prepared on it), told apart from a static
 * GPU whose slices claims hold by the checkpoint itself: a claim's device that its prepare created
 * on a dynamic GPU. So a restart in the middle of the switch keeps the GPU blocked; nothing else is
 * remembered.
 */
final class DynamicSwitches {
  private DynamicSwitches() {}

  /** Whether claims prepared while {@code gpu} was dynamic still hold devices on it. */
  static boolean turningStatic(GpuIndex gpu, ClaimedDevices claims) {
    return claims.on(gpu).stream().anyMatch(ClaimedDevice::created);
  }
}
