package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each version gate of shareable twins, and the sentence a shut one is logged with. */
class SharesGateTest {
  @ParameterizedTest(name = "kube-apiserver {0}, kubelet {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "v1.36.2 | v1.36.0 | ''",
        "v1.36.2-gke.1100 | v1.36.0-eks-1 | ''",
        "v1.37.0 | v1.36.5 | ''",
        "v2.0.0 | v2.0.0 | ''",
        "v1.36.1 | v1.36.1 | kube-apiserver 1.36.1 is older than 1.36.2, whose scheduler counts"
            + " committed shares",
        "v1.35.9 | v1.36.0 | kube-apiserver 1.35.9 is older than 1.36.2",
        "v1.36 | v1.36.0 | kube-apiserver's version \"v1.36\" has no patch number",
        "v1.36.2 | v1.35.4 | this node's kubelet v1.35.4 is not 1.36 or later",
        "v1.36.2 | '' | this node's kubelet version is unknown",
      })
  void shutsAtTheFirstGateBelowItsVersion(String apiServer, String kubelet, String shut) {
    var why = SharesGate.shutByVersions(apiServer, kubelet);

    if (shut.isEmpty()) {
      assertThat(why).isEmpty();
    } else {
      assertThat(why).get().asString().startsWith(shut);
    }
  }
}
