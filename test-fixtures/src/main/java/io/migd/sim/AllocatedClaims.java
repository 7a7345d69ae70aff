package io.migd.sim;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * ResourceClaims as the scheduler leaves them once it has allocated them, for the tests and the
 * chaos runner that stand in for it: one request {@code gpu} of the {@code mig.nvidia.com} device
 * class (of {@code share.migd.io} for shares, asking capacities), and {@code status.allocation}
 * naming each device, or each share of a device, of one pool.
 */
public final class AllocatedClaims {
  /** The request every claim built here has. */
  public static final String REQUEST = "gpu";

  /** The DeviceClass of shares: devices that allow multiple allocations. */
  public static final String SHARE_CLASS = "share.migd.io";

  private AllocatedClaims() {}

  /**
   * One share of a device as the scheduler allocates it.
   *
   * @param shareId the scheduler's {@code shareID}, a lower-case UUID
   * @param consumedCapacity what the share consumes of each capacity of the device (bytes for
   *     {@code memory}, percent for {@code compute})
   */
  public record Share(String device, String shareId, Map<String, Long> consumedCapacity) {
    /** Checks every part is there and copies the map. */
    public Share {
      Objects.requireNonNull(device);
      Objects.requireNonNull(shareId);
      consumedCapacity = Map.copyOf(consumedCapacity);
    }
  }

  /**
   * Claim {@code namespace/name} allocated {@code devices} of {@code driver}'s pool {@code pool}.
   */
  public static ResourceClaim of(
      String namespace, String name, String driver, String pool, List<String> devices) {
    return builder(namespace, name, driver, pool, devices).build();
  }

  /** Claim {@code namespace/name} with its one request, before the scheduler allocated it. */
  public static ResourceClaimBuilder requested(String namespace, String name) {
    return requested(namespace, name, "mig.nvidia.com", Map.of());
  }

  /**
   * Claim {@code namespace/name} with its one request of class {@code share.migd.io} asking these
   * capacities ({@code capacity.requests}), before the scheduler allocated it.
   */
  public static ResourceClaimBuilder requestedShare(
      String namespace, String name, Map<String, Long> capacity) {
    return requested(namespace, name, SHARE_CLASS, capacity);
  }

  /** As {@link #of}, left open for more (reservations, configuration). */
  public static ResourceClaimBuilder builder(
      String namespace, String name, String driver, String pool, List<String> devices) {
    return allocated(
        requested(namespace, name),
        devices.stream().map(device -> result(driver, pool, device).build()).toList());
  }

  /**
   * Claim {@code namespace/name} whose request asks {@code capacity} of class {@code
   * share.migd.io}, allocated {@code shares} of devices of {@code driver}'s pool {@code pool}; left
   * open for more.
   */
  public static ResourceClaimBuilder sharesBuilder(
      String namespace,
      String name,
      String driver,
      String pool,
      Map<String, Long> capacity,
      List<Share> shares) {
    return allocated(
        requestedShare(namespace, name, capacity),
        shares.stream()
            .map(
                share ->
                    result(driver, pool, share.device())
                        .withShareID(share.shareId())
                        .withConsumedCapacity(quantities(share.consumedCapacity()))
                        .build())
            .toList());
  }

  private static ResourceClaimBuilder requested(
      String namespace, String name, String deviceClass, Map<String, Long> capacity) {
    var exactly =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNewDevices()
            .addNewRequest()
            .withName(REQUEST)
            .withNewExactly()
            .withDeviceClassName(deviceClass);
    if (!capacity.isEmpty()) {
      exactly.withNewCapacity().withRequests(quantities(capacity)).endCapacity();
    }
    return exactly.endExactly().endRequest().endDevices().endSpec();
  }

  private static ResourceClaimBuilder allocated(
      ResourceClaimBuilder claim, List<DeviceRequestAllocationResult> results) {
    return claim
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .withResults(results)
        .endDevices()
        .endAllocation()
        .endStatus();
  }

  private static DeviceRequestAllocationResultBuilder result(
      String driver, String pool, String device) {
    return new DeviceRequestAllocationResultBuilder()
        .withRequest(REQUEST)
        .withDriver(driver)
        .withPool(pool)
        .withDevice(device);
  }

  private static Map<String, Quantity> quantities(Map<String, Long> amounts) {
    var quantities = new TreeMap<String, Quantity>();
    amounts.forEach((name, amount) -> quantities.put(name, new Quantity(Long.toString(amount))));
    return quantities;
  }
}
