package io.migd.reconcile;

import java.util.Optional;

/**
 * Whether the cluster takes partitionable devices, which dynamic GPUs need (DRA mode, DESIGN
 * section 12 "Kubernetes versions"). Where it does not, a {@code dynamic: true} GPU is kept with
 * the layout it has (no MIG mode change, no reset, no dynamic planner) and published as static.
 */
@FunctionalInterface
public interface PartitionableDevices {
  /** Dynamic GPUs are published: Kubernetes 1.36 and later, tests. */
  PartitionableDevices AVAILABLE = Optional::empty;

  /** Why dynamic GPUs cannot be published here; empty when they can (or it is not known yet). */
  Optional<String> unavailable();
}
