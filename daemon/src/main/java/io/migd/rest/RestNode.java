package io.migd.rest;

import io.migd.layout.NodeObserver;
import io.migd.reconcile.UsageSource;

/**
 * What the read calls need of the node: an observer over the daemon's NVML session, and the same
 * usage source the reconciler decides from (kubelet pods where there is a kubelet, NVML processes).
 */
public record RestNode(NodeObserver observer, UsageSource usage) {}
