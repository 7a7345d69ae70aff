package io.migd.handoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The handoff of the newest value from many threads: an older value never follows a newer one, and
 * a waiting offer returns only once its value or a newer one is handed over. Each race is made with
 * threads held on latches, not by repetition.
 */
class LatestWinsTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final List<String> handed = new CopyOnWriteArrayList<>();
  private final CountDownLatch inConsumer = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  /** Hands over to {@link #handed}, holding the first value in the consumer until released. */
  private final Consumer<String> holdingTheFirst =
      value -> {
        if (handed.isEmpty()) {
          inConsumer.countDown();
          awaitRelease();
        }
        handed.add(value);
      };

  @AfterEach
  void releaseEveryThread() throws InterruptedException {
    release.countDown();
    for (Thread thread : threads) {
      thread.join(PATIENCE);
    }
  }

  private void awaitRelease() {
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Thread started(Runnable work) {
    Thread thread = Thread.ofPlatform().start(work);
    threads.add(thread);
    return thread;
  }

  @Test
  void anOlderValueOfferedWhileANewerOneWaitsIsNeverHandedOver() throws Exception {
    var publishing = new LatestWins<>(holdingTheFirst);
    Thread first = started(() -> publishing.offer(1, "one"));
    inConsumer.await();

    // both return at once: the first thread is handing over, and hands over the newest
    publishing.offer(3, "three");
    publishing.offer(2, "two");
    release.countDown();
    first.join(PATIENCE);

    assertThat(handed).containsExactly("one", "three");
  }

  @Test
  void aWaitingOfferReturnsOnlyOnceItsValueIsHandedOverByTheThreadHandingOver() throws Exception {
    var publishing = new LatestWins<>(holdingTheFirst);
    started(() -> publishing.offer(1, "one"));
    inConsumer.await();
    var returned = new CompletableFuture<List<String>>();
    Thread waiting =
        started(
            () -> {
              publishing.offerAndWait(2, "two");
              returned.complete(List.copyOf(handed));
            });
    await().atMost(PATIENCE).until(() -> waiting.getState() == Thread.State.WAITING);

    assertThat(returned).isNotDone();
    release.countDown();

    assertThat(returned.get()).containsExactly("one", "two");
  }

  @Test
  void aConsumerFailureStillHandsOverTheNewerValueOfferedMeanwhileThenFailsItsThread()
      throws Exception {
    var publishing =
        new LatestWins<String>(
            value -> {
              if (value.equals("bad")) {
                inConsumer.countDown();
                awaitRelease();
                throw new IllegalStateException("kubelet gone");
              }
              handed.add(value);
            });
    var failure = new CompletableFuture<Throwable>();
    started(
        () -> {
          try {
            publishing.offerAndWait(1, "bad");
            failure.complete(null);
          } catch (IllegalStateException e) {
            failure.complete(e);
          }
        });
    inConsumer.await();
    Thread waiting = started(() -> publishing.offerAndWait(2, "good"));
    await().atMost(PATIENCE).until(() -> waiting.getState() == Thread.State.WAITING);
    release.countDown();
    waiting.join(PATIENCE);

    assertThat(failure.get()).hasMessage("kubelet gone");
    assertThat(handed).containsExactly("good");
  }

  @Test
  void aFailingConsumerFailsTheThreadHandingOverAndTheNextOfferStillGoes() {
    var publishing =
        new LatestWins<String>(
            value -> {
              if (value.equals("bad")) {
                throw new IllegalStateException("kubelet gone");
              }
              handed.add(value);
            });
    assertThatThrownBy(() -> publishing.offerAndWait(1, "bad")).hasMessage("kubelet gone");
    publishing.offerAndWait(2, "good");
    assertThat(handed).isEqualTo(List.of("good"));
  }
}
