package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.ConsumerPod.ClaimStatus;
import io.migd.claims.ConsumerPod.Container;
import io.migd.claims.ConsumerPod.PodClaim;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConsumerPodTest {
  private static final String CLAIM = "train-gpu";

  record Case(
      String name,
      List<PodClaim> claims,
      List<ClaimStatus> statuses,
      List<Container> containers,
      List<String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a pod claim naming the ResourceClaim, used by one container",
            List.of(new PodClaim("gpu", CLAIM)),
            List.of(),
            List.of(new Container("main", List.of("gpu")), new Container("side", List.of())),
            List.of("main")),
        new Case(
            "a template's claim, named by the status, used by two containers",
            List.of(new PodClaim("gpu", "")),
            List.of(new ClaimStatus("gpu", CLAIM)),
            List.of(
                new Container("trainer", List.of("gpu")),
                new Container("logger", List.of()),
                new Container("exporter", List.of("gpu"))),
            List.of("trainer", "exporter")),
        new Case(
            "a template whose claim is not made yet",
            List.of(new PodClaim("gpu", "")),
            List.of(),
            List.of(new Container("main", List.of("gpu"))),
            List.of()),
        new Case(
            "a template's status names another claim",
            List.of(new PodClaim("gpu", "")),
            List.of(new ClaimStatus("gpu", "other")),
            List.of(new Container("main", List.of("gpu"))),
            List.of()),
        new Case(
            "a status of another pod claim does not resolve a direct one",
            List.of(new PodClaim("gpu", "other"), new PodClaim("t", "")),
            List.of(new ClaimStatus("t", CLAIM)),
            List.of(new Container("a", List.of("gpu")), new Container("b", List.of("t"))),
            List.of("b")),
        new Case(
            "two pod claims of one container, one of them ours",
            List.of(new PodClaim("net", "nic"), new PodClaim("gpu", CLAIM)),
            List.of(),
            List.of(new Container("main", List.of("net", "gpu"))),
            List.of("main")),
        new Case(
            "no container references the pod claim",
            List.of(new PodClaim("gpu", CLAIM)),
            List.of(),
            List.of(new Container("main", List.of())),
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void findsTheContainersThatUseTheClaim(Case c) {
    var pod = new ConsumerPod("uid-1", "default", "job", c.claims(), c.statuses(), c.containers());

    assertThat(pod.containersUsing(CLAIM)).isEqualTo(c.expected());
  }
}
