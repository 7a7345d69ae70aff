package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.AllocatedClaim.Consumer;
import io.migd.claims.ClaimSource.ClaimReadException;
import io.migd.claims.ConsumerPod.Container;
import io.migd.claims.ConsumerPod.PodClaim;
import io.migd.ownership.ReservedPod;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClaimConsumersTest {
  private static final ConsumerPod JOB =
      new ConsumerPod(
          "pod-uid",
          "ml",
          "job",
          List.of(new PodClaim("gpu", "train")),
          List.of(),
          List.of(new Container("main", List.of("gpu"))));

  private static AllocatedClaim reservedFor(Consumer... consumers) {
    return new AllocatedClaim(
        "c-uid", "ml", "train", true, List.of(), List.of(), List.of(consumers));
  }

  @Test
  void namesEachReservedPodWithTheContainersUsingTheClaim() {
    var consumers =
        new ClaimConsumers((ns, name) -> name.equals("job") ? Optional.of(JOB) : Optional.empty());

    assertThat(
            consumers.of(
                reservedFor(
                    new Consumer("pods", "job", "pod-uid"),
                    new Consumer("pods", "gone", "gone-uid"),
                    new Consumer("jobs", "batch", "j-uid"))))
        .contains(
            List.of(
                new ReservedPod("ml", "job", "pod-uid", List.of("main")),
                new ReservedPod("ml", "gone", "gone-uid", List.of())));
  }

  @Test
  void aPodRecreatedUnderTheSameNameIsNotTheOneReservedFor() {
    var consumers = new ClaimConsumers((ns, name) -> Optional.of(JOB));

    assertThat(consumers.of(reservedFor(new Consumer("pods", "job", "older-uid"))))
        .contains(List.of(new ReservedPod("ml", "job", "older-uid", List.of())));
  }

  @Test
  void answersNothingWhenThePodsCannotBeRead() {
    var consumers =
        new ClaimConsumers(
            (ns, name) -> {
              throw new ClaimReadException("the API server is away", new RuntimeException());
            });

    assertThat(consumers.of(reservedFor(new Consumer("pods", "job", "pod-uid")))).isEmpty();
  }
}
