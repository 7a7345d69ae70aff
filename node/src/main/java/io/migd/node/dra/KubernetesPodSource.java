package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.claims.ClaimSource.ClaimReadException;
import io.migd.claims.ConsumerPod;
import io.migd.claims.PodSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The Pods a claim is reserved for, read from the API server ({@code pods get} in the claim's
 * namespace), reduced to which containers and init containers use which pod claims.
 */
public final class KubernetesPodSource implements PodSource {
  private final KubernetesClient client;

  /** Reads through {@code client}. */
  public KubernetesPodSource(KubernetesClient client) {
    this.client = Objects.requireNonNull(client);
  }

  @Override
  public Optional<ConsumerPod> pod(String namespace, String name) {
    Pod pod;
    try {
      pod = client.pods().inNamespace(namespace).withName(name).get();
    } catch (RuntimeException e) {
      throw new ClaimReadException(
          "reading Pod "
              + namespace
              + "/"
              + name
              + " from the API server failed: "
              + e.getMessage(),
          e);
    }
    return Optional.ofNullable(pod).map(KubernetesPodSource::consumerPod);
  }

  static ConsumerPod consumerPod(Pod pod) {
    var metadata = pod.getMetadata();
    var spec = pod.getSpec();
    List<PodResourceClaim> claims = spec == null ? List.of() : nonNull(spec.getResourceClaims());
    List<PodResourceClaimStatus> statuses =
        pod.getStatus() == null ? List.of() : nonNull(pod.getStatus().getResourceClaimStatuses());
    Stream<Container> containers =
        spec == null
            ? Stream.of()
            : Stream.concat(
                nonNull(spec.getInitContainers()).stream(), nonNull(spec.getContainers()).stream());
    return new ConsumerPod(
        Objects.requireNonNullElse(metadata.getUid(), ""),
        Objects.requireNonNullElse(metadata.getNamespace(), ""),
        metadata.getName(),
        claims.stream()
            .map(
                c ->
                    new ConsumerPod.PodClaim(
                        c.getName(), Objects.requireNonNullElse(c.getResourceClaimName(), "")))
            .toList(),
        statuses.stream()
            .map(
                s ->
                    new ConsumerPod.ClaimStatus(
                        s.getName(), Objects.requireNonNullElse(s.getResourceClaimName(), "")))
            .toList(),
        containers
            .map(
                c ->
                    new ConsumerPod.Container(
                        c.getName(),
                        c.getResources() == null
                            ? List.of()
                            : nonNull(c.getResources().getClaims()).stream()
                                .map(ResourceClaim::getName)
                                .toList()))
            .toList());
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
