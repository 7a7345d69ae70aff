package io.migd.node.dra;

import java.util.Optional;

/**
 * The version gates of shareable twins (DESIGN section 14, Fractions, "Versions"): the API server
 * 1.36.2 or later, whose scheduler counts committed shares when it rebuilds the available counters
 * (before it, an exclusive device could be allocated over a device in shared use:
 * kubernetes#139034), and this node's kubelet 1.36 or later, where DRAConsumableCapacity is on by
 * default. The probe twin's read-back is the last gate, {@link DraCapabilityProbe}'s.
 */
final class SharesGate {
  static final KubeVersion API_SERVER = new KubeVersion(1, 36, 2);
  static final KubeVersion KUBELET = new KubeVersion(1, 36, 0);

  private SharesGate() {}

  /**
   * Why the versions shut the gate, as a clause for the log; empty when they let shares through.
   *
   * @param apiServer the API server's {@code /version} gitVersion
   * @param kubelet the Node's {@code status.nodeInfo.kubeletVersion}; null when the Node could not
   *     be read or does not say
   */
  static Optional<String> shutByVersions(String apiServer, String kubelet) {
    var server = KubeVersion.parse(apiServer);
    if (server.isEmpty()) {
      return Optional.of(
          "kube-apiserver's version \""
              + apiServer
              + "\" has no patch number, so migd cannot tell that it is "
              + API_SERVER
              + " or later");
    }
    if (!server.get().atLeast(API_SERVER)) {
      return Optional.of(
          "kube-apiserver "
              + server.get()
              + " is older than "
              + API_SERVER
              + ", whose scheduler counts committed shares when it rebuilds the available counters"
              + " (before it, an exclusive device can be allocated over a shared one:"
              + " kubernetes#139034)");
    }
    if (kubelet == null || kubelet.isBlank()) {
      return Optional.of(
          "this node's kubelet version is unknown (the Node's status.nodeInfo.kubeletVersion could"
              + " not be read)");
    }
    var node = KubeVersion.parse(kubelet);
    if (node.isEmpty() || !node.get().atLeast(KUBELET)) {
      return Optional.of(
          "this node's kubelet "
              + kubelet
              + " is not 1.36 or later, where the DRAConsumableCapacity feature it needs to prepare"
              + " shares is on by default");
    }
    return Optional.empty();
  }
}
