package io.migd.claims;

import io.migd.claims.ClaimSource.ClaimReadException;
import io.migd.ownership.ReservedPod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pods a claim is reserved for, each with the containers that reference the claim: read when
 * the claim is prepared and at the claim check, never when a surface asks.
 */
final class ClaimConsumers {
  private static final String PODS = "pods";

  private final PodSource pods;

  ClaimConsumers(PodSource pods) {
    this.pods = pods;
  }

  /**
   * The claim's reserved-for pods; empty when a pod cannot be read (the caller keeps what it knew).
   * A pod that is gone, or re-created under the same name, is listed without containers.
   */
  Optional<List<ReservedPod>> of(AllocatedClaim claim) {
    var found = new ArrayList<ReservedPod>();
    for (AllocatedClaim.Consumer consumer : claim.reservedFor()) {
      if (!consumer.resource().equals(PODS)) {
        continue;
      }
      Optional<ConsumerPod> pod;
      try {
        pod = pods.pod(claim.namespace(), consumer.name());
      } catch (ClaimReadException e) {
        return Optional.empty();
      }
      List<String> containers =
          pod.filter(p -> consumer.uid().isEmpty() || p.uid().equals(consumer.uid()))
              .map(p -> p.containersUsing(claim.name()))
              .orElse(List.of());
      found.add(new ReservedPod(claim.namespace(), consumer.name(), consumer.uid(), containers));
    }
    return Optional.of(found);
  }
}
