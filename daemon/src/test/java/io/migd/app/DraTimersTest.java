package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Both timers run again and again on migd's own thread, and a run that throws stops neither. */
class DraTimersTest {
  @Test
  void aRunThatThrowsIsFollowedByTheNextAndTheOtherTimerGoesOn() throws Exception {
    var recoveries = new AtomicInteger();
    var recoveredAgain = new CountDownLatch(1);
    var checks = new CountDownLatch(3);
    var thread = new AtomicReference<String>();
    try (var timers =
        DraTimers.start(
            Duration.ofMillis(10),
            () -> {
              if (recoveries.incrementAndGet() == 1) {
                throw new IllegalStateException("NVML did not answer");
              }
              recoveredAgain.countDown();
            },
            Duration.ofMillis(10),
            () -> {
              thread.set(Thread.currentThread().getName());
              checks.countDown();
            })) {
      assertThat(recoveredAgain.await(30, TimeUnit.SECONDS))
          .as("the recovery ran again after it threw")
          .isTrue();
      assertThat(checks.await(30, TimeUnit.SECONDS)).as("the claim check ran 3 times").isTrue();
      assertThat(thread.get()).isEqualTo("migd-dra-timers");
    }
  }
}
