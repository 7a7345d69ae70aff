package io.migd.claims;

import io.migd.execute.Executor;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.nvml.Nvml;
import io.migd.pool.PoolContent;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.UsageSource;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the claims side works on: the node's NVML session and catalogue, the executor that makes
 * every change to MIG state (the reconcile's, so both tell the same progress listeners), the
 * instances the kubelet's PodResources lists under a device-plugin resource, and what the reconcile
 * and the pool say of each GPU now.
 *
 * @param devicePluginPods usage of pods PodResources lists under a device-plugin resource (a node
 *     switched to DRA mode without draining): those instances are never destroyed
 * @param pool the pool as published now
 * @param reconciled whether the reconcile loop has reconciled a GPU yet (a prepare waits for it)
 * @param dynamic whether a GPU is dynamic now: claim work queued on a GPU's lane (a delayed
 *     reclaim, a sweep) that finds it static leaves it to the reconcile
 */
public record ClaimNode(
    Nvml nvml,
    GpuModelCatalog catalog,
    Executor executor,
    UsageSource devicePluginPods,
    Supplier<PoolContent> pool,
    Predicate<GpuIndex> reconciled,
    Predicate<GpuIndex> dynamic) {
  /** No pod of the device plugin: a node that never ran it, and tests. */
  public static final UsageSource NO_PODS = observed -> Usage.NONE;

  /** Checks every part is there. */
  public ClaimNode {
    Objects.requireNonNull(nvml);
    Objects.requireNonNull(catalog);
    Objects.requireNonNull(executor);
    Objects.requireNonNull(devicePluginPods);
    Objects.requireNonNull(pool);
    Objects.requireNonNull(reconciled);
    Objects.requireNonNull(dynamic);
  }
}
