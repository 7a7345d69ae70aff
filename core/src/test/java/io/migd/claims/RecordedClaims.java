package io.migd.claims;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** Claims and pods as a test writes them, standing in for the API server. */
final class RecordedClaims implements ClaimSource, PodSource {
  private final Map<String, AllocatedClaim> claims = new ConcurrentHashMap<>();
  private final Map<String, ConsumerPod> pods = new ConcurrentHashMap<>();

  void put(ConsumerPod pod) {
    pods.put(pod.namespace() + "/" + pod.name(), pod);
  }

  @Override
  public Optional<ConsumerPod> pod(String namespace, String name) {
    return Optional.ofNullable(pods.get(namespace + "/" + name));
  }

  private volatile Consumer<String> onGet = name -> {};

  void put(AllocatedClaim claim) {
    claims.put(claim.namespace() + "/" + claim.name(), claim);
  }

  void delete(String namespace, String name) {
    claims.remove(namespace + "/" + name);
  }

  /** Runs {@code hook} with the claim's name on every read, before it answers. */
  void onGet(Consumer<String> hook) {
    onGet = hook;
  }

  @Override
  public Optional<AllocatedClaim> get(String namespace, String name) {
    onGet.accept(name);
    return Optional.ofNullable(claims.get(namespace + "/" + name));
  }

  @Override
  public List<AllocatedClaim> listAllocatedToPool() {
    return List.copyOf(claims.values());
  }
}
