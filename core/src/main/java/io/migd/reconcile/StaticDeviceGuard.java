package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import java.util.List;

/**
 * Asked before a plan removes static devices (DRA mode, DESIGN section 12 "Who owns what"): the
 * claims whose allocation names one of them. The pool has withdrawn the devices by then (the plan's
 * listeners were told), so a claim allocated after the answer cannot name them. A claim it names
 * blocks the plan. It may read the API server; it is never called under a lock.
 */
@FunctionalInterface
public interface StaticDeviceGuard {
  /** No claim holds anything: device-plugin mode, and tests. */
  StaticDeviceGuard NONE = deviceNames -> List.of();

  /**
   * The claims ({@code namespace/name}) whose allocation names any of these devices.
   *
   * @param deviceNames the pool's names of the devices a plan removes
   * @return the holding claims, empty when none
   */
  List<String> claimsHolding(List<String> deviceNames);

  /**
   * The claims ({@code namespace/name}) allocated a device the pool publishes for {@code gpu} as
   * dynamic (a placement, or the GPU whole), asked before a plan changes a GPU that is static now:
   * a GPU turning from dynamic to static withdraws those devices first, then its plan waits until
   * no claim is allocated one (DESIGN section 12). Empty when the pool publishes none for it.
   */
  default List<String> claimsOfDynamicDevices(GpuIndex gpu) {
    return List.of();
  }
}
