package io.migd.claims;

import io.migd.pool.PoolDevice;
import io.migd.sharing.DeviceSharing;
import java.util.HashMap;
import java.util.Map;

/**
 * The allocation results of one claim on shareable twins (DESIGN section 14, Fractions), read into
 * shares: each needs the scheduler's {@code shareID} and {@code consumedCapacity}; a share carries
 * no {@code sharing} config (shares already run under MPS); one claim holds at most one share of a
 * device, and one request at most one shared device (a process reaches one MPS server).
 */
final class ShareResults {
  private final String claim;
  private final Map<String, String> deviceByRequest = new HashMap<>();

  ShareResults(String claim) {
    this.claim = claim;
  }

  /**
   * The sharing of {@code device}, allocated by {@code result}: {@code configured} for an exclusive
   * device, the share for a twin.
   *
   * @param again whether the claim has a result on this device already
   * @throws ClaimFailure when the share cannot be served, naming why
   */
  DeviceSharing of(
      AllocatedClaim.Result result, PoolDevice device, DeviceSharing configured, boolean again) {
    if (!device.shared()) {
      return configured;
    }
    String name = device.name();
    if (again) {
      throw fail(
          "has two shares of device "
              + name
              + ": each would be its own MPS client of one server; ask one share with the sum");
    }
    String other = deviceByRequest.putIfAbsent(result.requestName(), name);
    if (other != null) {
      throw fail(
          "request "
              + result.requestName()
              + " has two shared devices, "
              + other
              + " and "
              + name
              + ": a process reaches one MPS server, so a container can use only one");
    }
    if (!(configured instanceof DeviceSharing.Exclusive)) {
      throw fail(
          "device "
              + name
              + " is a share, and shares already run under MPS: request "
              + result.requestName()
              + " must not carry a sharing config");
    }
    if (result.shareId().isEmpty()) {
      throw fail(
          "device "
              + name
              + " allows multiple allocations but its allocation result has no shareID: was it"
              + " allocated by a kube-scheduler without DRAConsumableCapacity?");
    }
    Long memory = result.consumedCapacity().get("memory");
    Long compute = result.consumedCapacity().get("compute");
    if (memory == null || compute == null) {
      throw fail(
          "device "
              + name
              + " share "
              + result.shareId().get()
              + " has no consumedCapacity for "
              + (memory == null ? "memory" : "compute")
              + ": its limits cannot be set");
    }
    if (memory < (1L << 20) || compute < 1 || compute > 100) {
      throw fail(
          "device "
              + name
              + " share "
              + result.shareId().get()
              + " consumed memory "
              + memory
              + " and compute "
              + compute
              + ": MPS cannot hold a client to that");
    }
    return new DeviceSharing.Share(result.shareId().get(), memory >> 20, compute.intValue());
  }

  private ClaimFailure fail(String why) {
    return new ClaimFailure("claim " + claim + " " + why);
  }
}
