package io.migd.rest;

import io.migd.ownership.ClaimedDevices;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.UsageSource;

/**
 * What the read calls need of the node: the node snapshot (what the last reconcile observed, with
 * the processes read live), the same usage source the reconciler decides from (kubelet pods where
 * there is a kubelet, NVML processes), and in dra mode the prepared claims' devices ({@link
 * ClaimedDevices#NONE} otherwise).
 */
public record RestNode(NodeSnapshot snapshot, UsageSource usage, ClaimedDevices claims) {
  /** A node without DRA claims. */
  public RestNode(NodeSnapshot snapshot, UsageSource usage) {
    this(snapshot, usage, ClaimedDevices.NONE);
  }
}
