package io.migd.devices;

import java.util.List;

/** Told about every {@code Allocate} the kubelet made, so those devices count as in use at once. */
@FunctionalInterface
public interface AllocationListener {
  /** Hears nothing. */
  AllocationListener NONE = (resource, ids) -> {};

  /** The kubelet allocated these device IDs of a resource to one container. */
  void allocated(String resource, List<String> deviceIds);
}
