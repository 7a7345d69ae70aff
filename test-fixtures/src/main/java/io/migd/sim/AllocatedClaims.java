package io.migd.sim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.List;

/**
 * ResourceClaims as the scheduler leaves them once it has allocated them, for the tests and the
 * chaos runner that stand in for it: one request {@code gpu} of the {@code mig.nvidia.com} device
 * class, and {@code status.allocation} naming each device of one pool.
 */
public final class AllocatedClaims {
  /** The request every claim built here has. */
  public static final String REQUEST = "gpu";

  private AllocatedClaims() {}

  /**
   * Claim {@code namespace/name} allocated {@code devices} of {@code driver}'s pool {@code pool}.
   */
  public static ResourceClaim of(
      String namespace, String name, String driver, String pool, List<String> devices) {
    return builder(namespace, name, driver, pool, devices).build();
  }

  /** Claim {@code namespace/name} with its one request, before the scheduler allocated it. */
  public static ResourceClaimBuilder requested(String namespace, String name) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .addNewRequest()
        .withName(REQUEST)
        .withNewExactly()
        .withDeviceClassName("mig.nvidia.com")
        .endExactly()
        .endRequest()
        .endDevices()
        .endSpec();
  }

  /** As {@link #of}, left open for more (reservations, configuration). */
  public static ResourceClaimBuilder builder(
      String namespace, String name, String driver, String pool, List<String> devices) {
    return requested(namespace, name)
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .withResults(
            devices.stream()
                .map(
                    device ->
                        new DeviceRequestAllocationResultBuilder()
                            .withRequest(REQUEST)
                            .withDriver(driver)
                            .withPool(pool)
                            .withDevice(device)
                            .build())
                .toList())
        .endDevices()
        .endAllocation()
        .endStatus();
  }
}
