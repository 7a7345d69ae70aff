package io.migd.claims;

import java.util.List;
import java.util.Objects;

/**
 * A ResourceClaim as the API server holds it, reduced to what a prepare needs.
 *
 * @param allocated whether {@code status.allocation} is set
 * @param results the allocation's device results, every driver's
 * @param opaqueConfigDrivers the drivers named by opaque configuration in the allocation
 * @param reservedFor the consumers the claim is reserved for (pods, usually)
 */
public record AllocatedClaim(
    String uid,
    String namespace,
    String name,
    boolean allocated,
    List<Result> results,
    List<String> opaqueConfigDrivers,
    List<Consumer> reservedFor) {

  /**
   * One allocated device.
   *
   * @param request the request it serves, {@code <request>} or {@code <request>/<subrequest>}
   * @param deviceClass the DeviceClass that request (or subrequest) names in the claim's spec,
   *     empty when the spec names none
   */
  public record Result(
      String request,
      String driver,
      String pool,
      String device,
      boolean adminAccess,
      String deviceClass) {
    /** Checks every part is there. */
    public Result {
      Objects.requireNonNull(request);
      Objects.requireNonNull(driver);
      Objects.requireNonNull(pool);
      Objects.requireNonNull(device);
      Objects.requireNonNull(deviceClass);
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

  /** Copies the lists. */
  public AllocatedClaim {
    Objects.requireNonNull(uid);
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
    results = List.copyOf(results);
    opaqueConfigDrivers = List.copyOf(opaqueConfigDrivers);
    reservedFor = List.copyOf(reservedFor);
  }
}
