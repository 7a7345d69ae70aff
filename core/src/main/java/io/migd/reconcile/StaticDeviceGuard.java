package io.migd.reconcile;

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
}
