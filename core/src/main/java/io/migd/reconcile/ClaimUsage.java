package io.migd.reconcile;

import io.migd.claims.ClaimedDevice;
import io.migd.claims.ClaimedDevices;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

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

  /** The usage prepared claims' devices make. */
  static Usage of(List<ClaimedDevice> devices) {
    var holders = new HashMap<Usage.SliceKey, List<String>>();
    for (ClaimedDevice d : devices) {
      var key =
          d.wholeGpu()
              ? new Usage.SliceKey(d.gpu(), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES)
              : new Usage.SliceKey(d.gpu(), d.gpuInstanceId(), d.computeInstanceId());
      String holder = holder(d);
      var list = holders.computeIfAbsent(key, k -> new ArrayList<>());
      if (!list.contains(holder)) {
        list.add(holder);
      }
    }
    return new Usage(holders);
  }

  /** How a claim is named as a holder. */
  static String holder(ClaimedDevice device) {
    return "claim " + device.claimNamespace() + "/" + device.claimName();
  }
}
