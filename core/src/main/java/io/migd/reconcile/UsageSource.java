package io.migd.reconcile;

import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;

/** Tells which slices are in use: NVML processes, and pods where the kubelet answers. */
@FunctionalInterface
public interface UsageSource {
  /** The usage of what was just observed. */
  Usage usage(ObservedNode observed);
}
