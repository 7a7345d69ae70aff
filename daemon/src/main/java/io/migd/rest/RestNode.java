package io.migd.rest;

import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.UsageSource;

/**
 * What the read calls need of the node: the node snapshot (what the last reconcile observed, with
 * the processes read live), and the same usage source the reconciler decides from (kubelet pods
 * where there is a kubelet, NVML processes).
 */
public record RestNode(NodeSnapshot snapshot, UsageSource usage) {}
