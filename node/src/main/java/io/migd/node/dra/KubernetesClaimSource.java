package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.claims.AllocatedClaim;
import io.migd.claims.ClaimSource;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * ResourceClaims read from the API server ({@code resource.k8s.io/v1}), reduced to what a prepare
 * needs: the allocation's device results (every driver's, each with the DeviceClass its request
 * names), its opaque configuration (the parameters as a plain tree, decoded by the core), and the
 * consumers the claim is reserved for.
 */
public final class KubernetesClaimSource implements ClaimSource {
  private final KubernetesClient client;
  private final String driver;
  private final String pool;

  /** Reads through {@code client}; {@code driver}'s pool {@code pool} is this node's. */
  public KubernetesClaimSource(KubernetesClient client, String driver, String pool) {
    this.client = Objects.requireNonNull(client);
    this.driver = Objects.requireNonNull(driver);
    this.pool = Objects.requireNonNull(pool);
  }

  @Override
  public Optional<AllocatedClaim> get(String namespace, String name) {
    ResourceClaim claim;
    try {
      claim =
          client
              .dynamicResourceAllocation()
              .v1()
              .resourceClaims()
              .inNamespace(namespace)
              .withName(name)
              .get();
    } catch (RuntimeException e) {
      throw new ClaimReadException(
          "reading ResourceClaim "
              + namespace
              + "/"
              + name
              + " from the API server failed: "
              + e.getMessage(),
          e);
    }
    return Optional.ofNullable(claim).map(KubernetesClaimSource::allocatedClaim);
  }

  @Override
  public List<AllocatedClaim> listAllocatedToPool() {
    List<ResourceClaim> claims;
    try {
      claims =
          client
              .dynamicResourceAllocation()
              .v1()
              .resourceClaims()
              .inAnyNamespace()
              .list()
              .getItems();
    } catch (RuntimeException e) {
      throw new ClaimReadException(
          "listing the ResourceClaims of every namespace from the API server failed: "
              + e.getMessage(),
          e);
    }
    return claims.stream()
        .map(KubernetesClaimSource::allocatedClaim)
        .filter(
            claim ->
                claim.results().stream()
                    .anyMatch(r -> r.driver().equals(driver) && r.pool().equals(pool)))
        .toList();
  }

  /** The claim reduced to what a prepare needs. */
  static AllocatedClaim allocatedClaim(ResourceClaim claim) {
    var metadata = claim.getMetadata();
    ResourceClaimStatus status = claim.getStatus();
    AllocationResult allocation = status == null ? null : status.getAllocation();
    List<DeviceRequestAllocationResult> results =
        allocation == null || allocation.getDevices() == null
            ? List.of()
            : nonNull(allocation.getDevices().getResults());
    List<DeviceAllocationConfiguration> config =
        allocation == null || allocation.getDevices() == null
            ? List.of()
            : nonNull(allocation.getDevices().getConfig());
    List<ResourceClaimConsumerReference> reservedFor =
        status == null ? List.of() : nonNull(status.getReservedFor());
    Map<String, String> classes = deviceClasses(claim);
    return new AllocatedClaim(
        Objects.requireNonNullElse(metadata.getUid(), ""),
        Objects.requireNonNullElse(metadata.getNamespace(), ""),
        metadata.getName(),
        allocation != null,
        results.stream()
            .map(
                r ->
                    new AllocatedClaim.Result(
                        r.getRequest(),
                        r.getDriver(),
                        r.getPool(),
                        r.getDevice(),
                        Boolean.TRUE.equals(r.getAdminAccess()),
                        classes.getOrDefault(r.getRequest(), ""),
                        Optional.ofNullable(r.getShareID()),
                        consumed(r.getConsumedCapacity())))
            .toList(),
        config.stream()
            .filter(c -> c.getOpaque() != null && c.getOpaque().getDriver() != null)
            .map(
                c ->
                    new AllocatedClaim.Config(
                        "FromClass".equals(c.getSource()),
                        nonNull(c.getRequests()),
                        c.getOpaque().getDriver(),
                        OpaqueParameters.tree(c.getOpaque().getParameters())))
            .toList(),
        reservedFor.stream()
            .map(
                c ->
                    new AllocatedClaim.Consumer(
                        Objects.requireNonNullElse(c.getResource(), ""),
                        Objects.requireNonNullElse(c.getName(), ""),
                        Objects.requireNonNullElse(c.getUid(), "")))
            .toList());
  }

  /** The DeviceClass per request, {@code <request>} or {@code <request>/<subrequest>}. */
  private static Map<String, String> deviceClasses(ResourceClaim claim) {
    var classes = new HashMap<String, String>();
    if (claim.getSpec() == null || claim.getSpec().getDevices() == null) {
      return classes;
    }
    for (DeviceRequest request : nonNull(claim.getSpec().getDevices().getRequests())) {
      if (request.getExactly() != null && request.getExactly().getDeviceClassName() != null) {
        classes.put(request.getName(), request.getExactly().getDeviceClassName());
      }
      for (DeviceSubRequest sub : nonNull(request.getFirstAvailable())) {
        if (sub.getDeviceClassName() != null) {
          classes.put(request.getName() + "/" + sub.getName(), sub.getDeviceClassName());
        }
      }
    }
    return classes;
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }

  /**
   * A share's {@code consumedCapacity} in whole units (bytes for {@code memory}); a fractional
   * amount is rounded up, as no capacity migd publishes has one.
   */
  private static SortedMap<String, Long> consumed(Map<String, Quantity> consumed) {
    var amounts = new TreeMap<String, Long>();
    if (consumed != null) {
      consumed.forEach(
          (name, amount) ->
              amounts.put(
                  name,
                  amount.getNumericalAmount().setScale(0, RoundingMode.CEILING).longValueExact()));
    }
    return amounts;
  }
}
