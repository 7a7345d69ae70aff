package io.migd.claims;

import java.util.List;
import java.util.Objects;

/**
 * One device of a prepared claim, as the kubelet is told of it.
 *
 * @param requestNames the claim's requests it serves, without {@code /<subrequest>}
 * @param pool the pool (the node's name)
 * @param device the device's name in the pool
 * @param cdiDeviceIds the CDI device IDs the container runtime resolves
 */
public record AnsweredDevice(
    List<String> requestNames, String pool, String device, List<String> cdiDeviceIds) {
  /** Copies the lists. */
  public AnsweredDevice {
    requestNames = List.copyOf(requestNames);
    Objects.requireNonNull(pool);
    Objects.requireNonNull(device);
    cdiDeviceIds = List.copyOf(cdiDeviceIds);
  }
}
