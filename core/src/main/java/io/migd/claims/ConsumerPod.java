package io.migd.claims;

import java.util.List;
import java.util.Objects;

/**
 * A Pod as the API server holds it, reduced to which of its containers use which ResourceClaims.
 *
 * @param claims {@code spec.resourceClaims[]}
 * @param statuses {@code status.resourceClaimStatuses[]}: the claims made from templates
 * @param containers the containers and init containers
 */
public record ConsumerPod(
    String uid,
    String namespace,
    String name,
    List<PodClaim> claims,
    List<ClaimStatus> statuses,
    List<Container> containers) {
  /** Copies the lists. */
  public ConsumerPod {
    Objects.requireNonNull(uid);
    Objects.requireNonNull(namespace);
    Objects.requireNonNull(name);
    claims = List.copyOf(claims);
    statuses = List.copyOf(statuses);
    containers = List.copyOf(containers);
  }

  /**
   * A pod claim: its name in the pod and the ResourceClaim it names, empty when it names a template
   * instead.
   */
  public record PodClaim(String name, String resourceClaimName) {
    /** Checks every part is there. */
    public PodClaim {
      Objects.requireNonNull(name);
      Objects.requireNonNull(resourceClaimName);
    }
  }

  /** The ResourceClaim made for a template pod claim, empty while none is made. */
  public record ClaimStatus(String name, String resourceClaimName) {
    /** Checks every part is there. */
    public ClaimStatus {
      Objects.requireNonNull(name);
      Objects.requireNonNull(resourceClaimName);
    }
  }

  /** A container and the pod claims its {@code resources.claims[].name} names. */
  public record Container(String name, List<String> claimNames) {
    /** Copies the list. */
    public Container {
      Objects.requireNonNull(name);
      claimNames = List.copyOf(claimNames);
    }
  }

  /**
   * The containers that use the ResourceClaim {@code resourceClaim} of the pod's namespace, in the
   * pod's order: a container names a pod claim that names the ResourceClaim directly, or names a
   * template from which the ResourceClaim was made.
   */
  public List<String> containersUsing(String resourceClaim) {
    var podClaims =
        claims.stream()
            .filter(
                c ->
                    c.resourceClaimName().equals(resourceClaim)
                        || c.resourceClaimName().isEmpty()
                            && statuses.stream()
                                .anyMatch(
                                    s ->
                                        s.name().equals(c.name())
                                            && s.resourceClaimName().equals(resourceClaim)))
            .map(PodClaim::name)
            .toList();
    return containers.stream()
        .filter(c -> c.claimNames().stream().anyMatch(podClaims::contains))
        .map(Container::name)
        .toList();
  }
}
