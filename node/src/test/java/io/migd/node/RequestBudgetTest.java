package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token bucket and the backoff, on a clock the test moves. */
class RequestBudgetTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final RequestBudget budget =
      new RequestBudget(5, 10, new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), now::get);

  private int takenNow() {
    int taken = 0;
    while (budget.tryTake().isZero()) {
      taken++;
    }
    return taken;
  }

  private void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  private static KubernetesClientException answer(int code, Integer retryAfterSeconds) {
    var status = new StatusBuilder().withCode(code).withMessage("HTTP " + code);
    if (retryAfterSeconds != null) {
      status.withNewDetails().withRetryAfterSeconds(retryAfterSeconds).endDetails();
    }
    return new KubernetesClientException(status.build());
  }

  @Test
  void letsABurstGoThenQpsPerSecond() {
    assertThat(takenNow()).as("a full bucket").isEqualTo(10);
    assertThat(budget.tryTake())
        .as("until one request is refilled")
        .isEqualTo(Duration.ofMillis(200));
    advance(Duration.ofSeconds(1));
    assertThat(takenNow()).isEqualTo(5);
    advance(Duration.ofMinutes(10));
    assertThat(takenNow()).as("a quiet time refills the burst, not more").isEqualTo(10);
  }

  @Test
  void neverLetsMoreThanBurstPlusQpsTimesTheTimeGo() {
    int taken = 0;
    for (int step = 0; step < 100; step++) {
      taken += takenNow();
      advance(Duration.ofMillis(37));
    }
    double elapsedSeconds = 99 * 0.037;
    assertThat(taken).isLessThanOrEqualTo((int) (10 + 5 * elapsedSeconds));
  }

  @Test
  void waitsWhatTheApiServerAskedForAfterA429() {
    assertThat(budget.failed(answer(429, 7))).isEqualTo(Duration.ofSeconds(7));
    assertThat(budget.tryTake()).isEqualTo(Duration.ofSeconds(7));
    advance(Duration.ofSeconds(6));
    assertThat(budget.tryTake()).isEqualTo(Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));
    assertThat(budget.tryTake()).isZero();
  }

  @Test
  void backsOffDoublingOnServerErrorsAndStartsAgainAfterASuccess() {
    assertThat(budget.failed(answer(500, null))).isEqualTo(Duration.ofSeconds(1));
    assertThat(budget.failed(answer(503, null))).isEqualTo(Duration.ofSeconds(2));
    assertThat(budget.failed(answer(429, null))).isEqualTo(Duration.ofSeconds(4));
    assertThat(budget.failed(answer(500, 1)))
        .as("the longer of the two")
        .isEqualTo(Duration.ofSeconds(8));
    assertThat(budget.failed(answer(500, null)))
        .as("never above max")
        .isEqualTo(Duration.ofSeconds(8));
    budget.succeeded();
    assertThat(budget.failed(answer(500, null))).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void takesRetryAfterOnlyFromAnOverloadedAnswer() {
    assertThat(RequestBudget.retryAfter(answer(429, 3))).isEqualTo(Duration.ofSeconds(3));
    assertThat(RequestBudget.retryAfter(answer(503, 3))).isEqualTo(Duration.ofSeconds(3));
    assertThat(RequestBudget.retryAfter(answer(409, 3))).isZero();
    assertThat(RequestBudget.retryAfter(new IllegalStateException("no node"))).isZero();
  }

  @Test
  void tellsServerTroubleFromARefusedRequest() {
    assertThat(RequestBudget.isServerTrouble(answer(429, null))).isTrue();
    assertThat(RequestBudget.isServerTrouble(answer(500, null))).isTrue();
    assertThat(RequestBudget.isServerTrouble(new KubernetesClientException("connection reset")))
        .as("no answer")
        .isTrue();
    assertThat(RequestBudget.isServerTrouble(answer(403, null))).isFalse();
    assertThat(RequestBudget.isServerTrouble(answer(404, null))).isFalse();
  }

  @Test
  void refusesARateThatCannotWork() {
    var backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1));
    assertThatThrownBy(() -> new RequestBudget(0, 10, backoff))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RequestBudget(5, 0, backoff))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
