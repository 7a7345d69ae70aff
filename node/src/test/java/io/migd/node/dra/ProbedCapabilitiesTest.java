package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.migd.execute.Backoff;
import io.migd.node.dra.ProbedCapabilities.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The probe at start in DRA mode (issue 18): what the first attempt finds decides the start as
 * before, unless the API server does not answer; then migd starts without capabilities, and learns
 * them (or its refusal) in the background. Attempts are scripted: each takes the next answer.
 */
class ProbedCapabilitiesTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final DraCapabilities ON_136 = new DraCapabilities(true, true, "Kubernetes 1.36");
  static final Settings QUICK =
      new Settings(
          Duration.ofSeconds(30),
          new Backoff(Duration.ofMillis(1), Duration.ofMillis(5)),
          Duration.ofMinutes(1));

  /** Settings whose start waits for the first attempt as short as it may. */
  static final Settings IMPATIENT =
      new Settings(Duration.ofNanos(1), QUICK.backoff(), QUICK.warnEvery());

  /** Attempts that answer in turn from a queue the test fills; an empty queue waits. */
  private static final class Script implements Supplier<DraCapabilities> {
    final BlockingQueue<Supplier<DraCapabilities>> answers = new LinkedBlockingQueue<>();
    final AtomicInteger attempts = new AtomicInteger();

    Script then(Supplier<DraCapabilities> answer) {
      answers.add(answer);
      return this;
    }

    Script unanswered(int times) {
      for (int i = 0; i < times; i++) {
        then(
            () -> {
              throw new DraCapabilityProbe.UnansweredException(
                  new KubernetesClientException("Connection refused"));
            });
      }
      return this;
    }

    @Override
    public DraCapabilities get() {
      attempts.incrementAndGet();
      try {
        return answers.take().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static ProbedCapabilities start(Script script, Settings settings) {
    return ProbedCapabilities.start(script, settings);
  }

  @Test
  void startsWithWhatAnAnsweringApiServerSupports() {
    var script = new Script().then(() -> ON_136);
    var used = new CopyOnWriteArrayList<DraCapabilities>();

    try (var probed = start(script, QUICK)) {
      probed.whenKnown(used::add);

      assertThat(probed.known()).contains(ON_136);
      assertThat(probed.waiting()).isEmpty();
      assertThat(used).containsExactly(ON_136);
    }
  }

  @Test
  void refusesTheStartWhenTheFirstAnswerIsTooOld() {
    var script =
        new Script()
            .then(
                () -> {
                  throw new UnsupportedKubernetesException("the API server is Kubernetes 1.33");
                });

    assertThatThrownBy(() -> start(script, QUICK))
        .isInstanceOf(UnsupportedKubernetesException.class)
        .hasMessageContaining("1.33");
  }

  @Test
  void refusesTheStartOnAnyOtherFirstAnswerAsBefore() {
    var forbidden = new KubernetesClientException("Forbidden", 403, null);
    var script =
        new Script()
            .then(
                () -> {
                  throw forbidden;
                });

    assertThatThrownBy(() -> start(script, QUICK)).isSameAs(forbidden);
  }

  @Test
  void startsWithoutAnswerThenLearnsTheCapabilitiesInTheBackground() {
    var script = new Script().unanswered(3);
    var used = new CopyOnWriteArrayList<DraCapabilities>();

    try (var probed = start(script, QUICK)) {
      probed.whenKnown(used::add);

      assertThat(probed.known()).isEmpty();
      assertThat(probed.waiting())
          .hasValueSatisfying(
              why ->
                  assertThat(why)
                      .startsWith("the API server has not answered migd's DRA probe yet (")
                      .contains("Connection refused"));
      assertThat(used).isEmpty();

      script.then(() -> ON_136);
      await().atMost(PATIENCE).until(probed::known, Optional::isPresent);
      assertThat(probed.waiting()).isEmpty();
      assertThat(used).containsExactly(ON_136);
      assertThat(script.attempts).hasValue(4);
    }
  }

  @Test
  void startsWhileTheFirstAttemptHangs() {
    var release = new CountDownLatch(1);
    var script =
        new Script()
            .then(
                () -> {
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return ON_136;
                });

    try (var probed = start(script, IMPATIENT)) {
      assertThat(probed.known()).isEmpty();
      assertThat(probed.waiting()).hasValueSatisfying(w -> assertThat(w).contains("no answer yet"));

      release.countDown();
      await().atMost(PATIENCE).until(probed::known, Optional::isPresent);
    }
  }

  @Test
  void retriesAnythingOnceStartedAndReportsALateRefusal() {
    var script =
        new Script()
            .unanswered(1)
            .then(
                () -> {
                  throw new KubernetesClientException("Forbidden", 403, null);
                })
            .unanswered(2)
            .then(
                () -> {
                  throw new UnsupportedKubernetesException("the API server is Kubernetes 1.33");
                });
    var refusals = new CopyOnWriteArrayList<UnsupportedKubernetesException>();
    var used = new CopyOnWriteArrayList<DraCapabilities>();

    try (var probed = start(script, QUICK)) {
      probed.whenKnown(used::add);
      probed.whenRefused(refusals::add);

      await().atMost(PATIENCE).until(() -> !refusals.isEmpty());
      assertThat(refusals)
          .singleElement()
          .satisfies(e -> assertThat(e).hasMessageContaining("1.33"));
      assertThat(probed.known()).isEmpty();
      assertThat(used).isEmpty();
      assertThat(script.attempts).hasValue(5);
    }
  }

  @Test
  void aFailingUseOfTheCapabilitiesNeitherStopsTheOthersNorTheProbe() {
    var script = new Script().unanswered(1);
    var used = new CopyOnWriteArrayList<DraCapabilities>();

    try (var probed = start(script, QUICK)) {
      probed.whenKnown(
          _ -> {
            throw new IllegalStateException("publisher closed");
          });
      probed.whenKnown(used::add);
      script.then(() -> ON_136);

      await().atMost(PATIENCE).until(() -> used.equals(List.of(ON_136)));
      assertThat(probed.known()).contains(ON_136);
    }
  }
}
