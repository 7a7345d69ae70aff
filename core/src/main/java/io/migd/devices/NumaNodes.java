package io.migd.devices;

import io.migd.layout.ObservedGpu;

/**
 * The NUMA node of each GPU, for the devices the kubelet sees (DESIGN.md section 13, "Topology").
 */
@FunctionalInterface
public interface NumaNodes {
  /** Knows no GPU's node: devices carry no topology. */
  NumaNodes UNKNOWN = gpu -> Device.NO_NUMA_NODE;

  /** The NUMA node of {@code gpu}, {@link Device#NO_NUMA_NODE} when unknown. */
  int of(ObservedGpu gpu);
}
