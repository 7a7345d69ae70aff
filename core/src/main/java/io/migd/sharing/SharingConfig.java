package io.migd.sharing;

import java.util.List;
import java.util.Objects;

/**
 * One decoded opaque configuration of a claim's allocation.
 *
 * @param fromClass whether it came from the request's DeviceClass ({@code source: FromClass}); a
 *     claim's own configuration ({@code FromClaim}) takes precedence over it
 * @param requests the requests it names; empty for every request
 * @param config what it says
 */
public record SharingConfig(boolean fromClass, List<String> requests, NvidiaConfig config) {
  /** Copies the requests. */
  public SharingConfig {
    requests = List.copyOf(requests);
    Objects.requireNonNull(config);
  }
}
