package io.migd.node.dra;

import java.util.Objects;

/**
 * What the API server supports of what DRA mode publishes (DESIGN section 12 "Kubernetes
 * versions"), decided once at start.
 *
 * @param dynamicDevices whether dynamic GPUs' devices (shared counters) may be published; when not,
 *     every GPU is static
 * @param deviceTaints whether device taints survive a write; when not, an unhealthy device is left
 *     out of its slice instead
 * @param shares whether shareable twins may be published (DESIGN section 14, Fractions: {@code
 *     migd.dra.shares}, the API server's and the kubelet's versions, and a probe twin read back)
 * @param why one sentence saying why, for the log
 */
public record DraCapabilities(
    boolean dynamicDevices, boolean deviceTaints, boolean shares, String why) {
  /** Checks the reason is there. */
  public DraCapabilities {
    Objects.requireNonNull(why);
  }

  /** Capabilities without shareable twins. */
  public DraCapabilities(boolean dynamicDevices, boolean deviceTaints, String why) {
    this(dynamicDevices, deviceTaints, false, why);
  }
}
