package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.migd.claims.AllocatedClaim;
import io.migd.claims.ClaimSource;
import java.math.RoundingMode;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ResourceClaims read from the API server ({@code resource.k8s.io/v1}), reduced to what a prepare
 * needs: the allocation's device results (every driver's, each with the DeviceClass its request
 * names), its opaque configuration (the parameters as a plain tree, decoded by the core), and the
 * consumers the claim is reserved for.
 */
public final class KubernetesClaimSource implements ClaimSource {
  /** Claims one list request asks for. */
  static final int PAGE = 250;

  /** Listings started over after the API server expired their continue token. */
  static final int LISTINGS = 3;

  private static final Logger log = LoggerFactory.getLogger(KubernetesClaimSource.class);

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

  /**
   * Every claim allocated from this node's pool. The API server has no selector for a claim's
   * allocation (it is in the status), so this lists the claims of every namespace, a page of
   * {@value #PAGE} at a time, keeping only this pool's: a cluster's many thousand claims never sit
   * in the daemon's small heap at once. A continue token the API server has expired (410 Gone, when
   * the listing outlives etcd's compaction) starts the listing again, up to {@value #LISTINGS}
   * times.
   */
  @Override
  public List<AllocatedClaim> listAllocatedToPool() {
    for (int listing = 1; ; listing++) {
      try {
        return listPages();
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_GONE && listing < LISTINGS) {
          log.info(
              "listing the ResourceClaims of every namespace again: the API server expired the"
                  + " continue token between pages (410 Gone, listing {} of {})",
              listing + 1,
              LISTINGS);
          continue;
        }
        throw listFailed(e);
      } catch (RuntimeException e) {
        throw listFailed(e);
      }
    }
  }

  private List<AllocatedClaim> listPages() {
    var mine = new ArrayList<AllocatedClaim>();
    String next = null;
    do {
      ResourceClaimList page =
          client
              .dynamicResourceAllocation()
              .v1()
              .resourceClaims()
              .inAnyNamespace()
              .list(new ListOptionsBuilder().withLimit((long) PAGE).withContinue(next).build());
      for (ResourceClaim claim : nonNull(page.getItems())) {
        AllocatedClaim allocated = allocatedClaim(claim);
        if (allocated.results().stream()
            .anyMatch(r -> r.driver().equals(driver) && r.pool().equals(pool))) {
          mine.add(allocated);
        }
      }
      next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
    } while (next != null && !next.isEmpty());
    return List.copyOf(mine);
  }

  private static ClaimReadException listFailed(RuntimeException e) {
    return new ClaimReadException(
        "listing the ResourceClaims of every namespace from the API server failed: "
            + e.getMessage(),
        e);
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
