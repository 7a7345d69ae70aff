package io.migd.bench.chaos;

import io.migd.sim.AllocatedClaims;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The chaos claims as ResourceClaim objects in the API server: created allocated, and deleted once
 * unprepared (a delete an outage refused is tried again).
 */
final class ClaimObjects {
  static final String NAMESPACE = "chaos";

  private final ChaosNode node;
  private final List<String> undeleted = new ArrayList<>();

  ClaimObjects(ChaosNode node) {
    this.node = node;
  }

  /**
   * Creates the claim {@code name} allocated {@code devices} on the node, with the opaque configs
   * of its {@link ChaosSharing}; returns its UID.
   */
  String create(String name, List<String> devices) {
    var sharing = ChaosSharing.of(name, node.mpsRoot().isPresent());
    return node.client
        .resource(
            AllocatedClaims.builder(NAMESPACE, name, ChaosNode.DRIVER, ChaosNode.NODE, devices)
                .editStatus()
                .editAllocation()
                .editDevices()
                .withConfig(sharing.configs(ChaosNode.DRIVER))
                .endDevices()
                .endAllocation()
                .endStatus()
                .build())
        .create()
        .getMetadata()
        .getUid();
  }

  /**
   * Creates the claim {@code name} of class {@code share.migd.io} asking {@code capacity},
   * allocated {@code shares} (no opaque configs: a share's limits come with it); returns its UID.
   */
  String createShares(String name, Map<String, Long> capacity, List<DraClaims.Share> shares) {
    return node.client
        .resource(
            AllocatedClaims.sharesBuilder(
                    NAMESPACE,
                    name,
                    ChaosNode.DRIVER,
                    ChaosNode.NODE,
                    capacity,
                    shares.stream()
                        .map(s -> new AllocatedClaims.Share(s.device(), s.shareId(), s.consumed()))
                        .toList())
                .build())
        .create()
        .getMetadata()
        .getUid();
  }

  /** Deletes the claim {@code name} now, or later if the API server refuses. */
  void delete(String name) {
    undeleted.add(name);
    deletePending();
  }

  /** Whether a delete is still pending. */
  boolean pending() {
    return !undeleted.isEmpty();
  }

  /** Tries again every delete the API server refused. */
  void deletePending() {
    undeleted.removeIf(
        name -> {
          try {
            node.client
                .dynamicResourceAllocation()
                .v1()
                .resourceClaims()
                .inNamespace(NAMESPACE)
                .withName(name)
                .delete();
            return true;
          } catch (RuntimeException e) {
            return false;
          }
        });
  }
}
