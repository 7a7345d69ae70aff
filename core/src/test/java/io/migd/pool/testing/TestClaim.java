package io.migd.pool.testing;

import java.util.List;
import java.util.Objects;

/** A ResourceClaim before allocation: its identity and its requests, in order. */
public record TestClaim(String uid, String namespace, String name, List<DeviceRequest> requests) {
  /** Checks every part is there and copies the requests. */
  public TestClaim {
    Objects.requireNonNull(uid);
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
    requests = List.copyOf(requests);
    if (requests.isEmpty()) {
      throw new IllegalArgumentException("claim " + name + " has no request");
    }
  }

  /** A claim in namespace {@code default} named after its uid, with these requests. */
  public static TestClaim of(String uid, DeviceRequest... requests) {
    return new TestClaim(uid, "default", "claim-" + uid, List.of(requests));
  }
}
