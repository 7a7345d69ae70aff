package io.migd.reconcile;

import io.migd.claims.ClaimedDevices;
import io.migd.layout.GpuIndex;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which GPUs were dynamic when this process last reconciled them, so a GPU turning static while
 * claims are prepared on it is told apart from a static GPU whose slices claims hold (DESIGN
 * section 12: it withdraws its unprepared devices, then stays {@code blocked} until no claim is
 * prepared on it). A GPU leaves the set once it is static and no claim is prepared on it. The set
 * lives in memory: after a restart a GPU turning static is planned as any static GPU, its claims'
 * instances in use (kept, or blocking the plan).
 */
final class DynamicSwitches {
  private final Set<GpuIndex> dynamic = ConcurrentHashMap.newKeySet();

  /** Whether {@code gpu} was dynamic and claims are still prepared on it. */
  boolean turningStatic(GpuIndex gpu, ClaimedDevices claims) {
    return dynamic.contains(gpu) && !claims.on(gpu).isEmpty();
  }

  /** Records what a reconcile resolved: dynamic GPUs join, static ones without claims leave. */
  void record(Map<GpuIndex, Resolution> resolutions, ClaimedDevices claims) {
    resolutions.forEach(
        (gpu, resolution) -> {
          if (resolution instanceof Resolution.Target(var target, _) && target.dynamic()) {
            dynamic.add(gpu);
          } else if (claims.on(gpu).isEmpty()) {
            dynamic.remove(gpu);
          }
        });
  }
}
