package io.migd.claims;

import io.migd.pool.DeviceOrigin;
import io.migd.sharing.ConfigMatching;
import io.migd.sharing.ConfigRefused;
import io.migd.sharing.DeviceSharing;
import io.migd.sharing.NvidiaConfig.DeviceType;
import io.migd.sharing.NvidiaConfigDecoder;
import io.migd.sharing.SharingConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A claim's opaque configuration for migd's driver, decoded strictly before anything is touched
 * (one that cannot be decoded fails the claim, naming it), and matched to each allocated device.
 */
final class ClaimConfigs {
  private final String label;
  private final List<SharingConfig> configs;

  private ClaimConfigs(String label, List<SharingConfig> configs) {
    this.label = label;
    this.configs = configs;
  }

  /**
   * The configuration of {@code claim} for {@code driver}; other drivers' is not read.
   *
   * @throws ClaimFailure naming the configuration and what migd refuses in it
   */
  static ClaimConfigs of(AllocatedClaim claim, String label, String driver) {
    var decoded = new ArrayList<SharingConfig>();
    int index = 0;
    for (AllocatedClaim.Config c : claim.configs()) {
      index++;
      if (!c.driver().equals(driver)) {
        continue;
      }
      try {
        decoded.add(
            new SharingConfig(
                c.fromClass(), c.requests(), NvidiaConfigDecoder.decode(c.parameters())));
      } catch (ConfigRefused e) {
        throw new ClaimFailure(
            "claim "
                + label
                + ": opaque configuration "
                + index
                + " for driver "
                + driver
                + (c.fromClass() ? " (from the DeviceClass)" : "")
                + " cannot be applied: "
                + e.getMessage());
      }
    }
    return new ClaimConfigs(label, List.copyOf(decoded));
  }

  /**
   * How the device {@code device}, allocated for {@code request}, is shared.
   *
   * @throws ClaimFailure when the configuration naming its request does not fit it
   */
  DeviceSharing sharingOf(String request, String device, DeviceOrigin origin) {
    DeviceType type =
        switch (origin) {
          case DeviceOrigin.WholeGpu _ -> DeviceType.GPU;
          case DeviceOrigin.StaticSlice _, DeviceOrigin.DynamicPlacement _ -> DeviceType.MIG;
        };
    try {
      return ConfigMatching.sharingOf(configs, request, device, type);
    } catch (ConfigRefused e) {
      throw new ClaimFailure("claim " + label + ": " + e.getMessage());
    }
  }
}
