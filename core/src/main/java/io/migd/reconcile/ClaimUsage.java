package io.migd.reconcile;

import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimedDevice;
import io.migd.ownership.ClaimedDevices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;

/**
 * Usage in DRA mode: what another source says (processes, and the instances PodResources lists
 * under a device-plugin resource, which are never destroyed and are reported), and every device a
 * prepared claim owns, held by {@code claim <namespace>/<name>}.
 */
final class ClaimUsage implements UsageSource {
  private final UsageSource others;
  private final ClaimedDevices claims;

  ClaimUsage(UsageSource others, ClaimedDevices claims) {
    this.others = others;
    this.claims = claims;
  }

  @Override
  public Usage usage(ObservedNode observed) {
    return others.usage(observed).merge(of(claims.all()));
  }

  /**
   * The usage prepared claims' devices make: a whole GPU holds the GPU, a made instance its compute
   * instance. A placement whose instance is not made yet holds no instance: the instance its
   * prepare makes is the claim's by its placement ({@link ClaimDevice#owns}), and no other instance
   * of the GPU is the claim's.
   */
  static Usage of(List<ClaimedDevice> devices) {
    var holders = new HashMap<Usage.SliceKey, List<String>>();
    for (ClaimedDevice d : devices) {
      Optional<Usage.SliceKey> key =
          switch (d.device()) {
            case ClaimDevice.Whole w ->
                Optional.of(
                    new Usage.SliceKey(w.gpu(), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES));
            case ClaimDevice.Made m ->
                Optional.of(
                    new Usage.SliceKey(
                        m.gpu(), m.instance().gpuInstanceId(), m.instance().computeInstanceId()));
            case ClaimDevice.Planned _ -> Optional.empty();
          };
      String holder = d.key().holder();
      key.ifPresent(
          k -> {
            var list = holders.computeIfAbsent(k, x -> new ArrayList<>());
            if (!list.contains(holder)) {
              list.add(holder);
            }
          });
    }
    return new Usage(holders);
  }
}
