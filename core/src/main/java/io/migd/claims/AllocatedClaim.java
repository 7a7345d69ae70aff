package io.migd.claims;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A ResourceClaim as the API server holds it, reduced to what a prepare needs.
 *
 * @param allocated whether {@code status.allocation} is set
 * @param results the allocation's device results, every driver's
 * @param configs the allocation's opaque configuration, every driver's, in the order the API server
 *     lists it
 * @param reservedFor the consumers the claim is reserved for (pods, usually)
 */
public record AllocatedClaim(
    String uid,
    String namespace,
    String name,
    boolean allocated,
    List<Result> results,
    List<Config> configs,
    List<Consumer> reservedFor) {

  /**
   * One allocated device.
   *
   * @param request the request it serves, {@code <request>} or {@code <request>/<subrequest>}
   * @param deviceClass the DeviceClass that request (or subrequest) names in the claim's spec,
   *     empty when the spec names none
   * @param shareId the scheduler's {@code shareID}, on a device that allows multiple allocations
   * @param consumedCapacity the share's {@code consumedCapacity} (capacity name to amount, bytes
   *     for {@code memory}); empty when the result has none
   */
  public record Result(
      String request,
      String driver,
      String pool,
      String device,
      boolean adminAccess,
      String deviceClass,
      Optional<String> shareId,
      SortedMap<String, Long> consumedCapacity) {
    /** Checks every part is there and copies the map. */
    public Result {
      Objects.requireNonNull(request);
      Objects.requireNonNull(driver);
      Objects.requireNonNull(pool);
      Objects.requireNonNull(device);
      Objects.requireNonNull(deviceClass);
      Objects.requireNonNull(shareId);
      consumedCapacity = Collections.unmodifiableSortedMap(new TreeMap<>(consumedCapacity));
    }

    /** A result of a device allocated to this claim alone. */
    public Result(
        String request,
        String driver,
        String pool,
        String device,
        boolean adminAccess,
        String deviceClass) {
      this(
          request,
          driver,
          pool,
          device,
          adminAccess,
          deviceClass,
          Optional.empty(),
          new TreeMap<>());
    }

    /** A result whose request's DeviceClass is not known. */
    public Result(String request, String driver, String pool, String device, boolean adminAccess) {
      this(request, driver, pool, device, adminAccess, "");
    }

    /** The request's name without {@code /<subrequest>}, as the kubelet's {@code request_names}. */
    public String requestName() {
      int slash = request.indexOf('/');
      return slash < 0 ? request : request.substring(0, slash);
    }
  }

  /** A consumer of the claim, {@code status.reservedFor}. */
  public record Consumer(String resource, String name, String uid) {
    /** Checks every part is there. */
    public Consumer {
      Objects.requireNonNull(resource);
      Objects.requireNonNull(name);
      Objects.requireNonNull(uid);
    }
  }

  /**
   * One opaque configuration of the allocation ({@code status.allocation.devices.config[]}).
   *
   * @param fromClass {@code source: FromClass} (the request's DeviceClass), else {@code FromClaim}
   * @param requests the requests it names; empty for every request
   * @param driver the driver it is for
   * @param parameters its parameters as the plain tree JSON gives ({@code Map}, {@code List},
   *     {@code String}, {@code Number}, {@code Boolean}; null where a value is null)
   */
  public record Config(boolean fromClass, List<String> requests, String driver, Object parameters) {
    /** Copies the requests. */
    public Config {
      requests = List.copyOf(requests);
      Objects.requireNonNull(driver);
    }
  }

  /** Copies the lists. */
  public AllocatedClaim {
    Objects.requireNonNull(uid);
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
    results = List.copyOf(results);
    configs = List.copyOf(configs);
    reservedFor = List.copyOf(reservedFor);
  }
}
