package io.migd.app;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DRA side's periodic work on one thread of its own ({@code migd-dra-timers}): the recovery of
 * tainted devices and the claim check. Each run catches and logs its own failure, so the next run
 * comes as planned and the thread never dies.
 */
final class DraTimers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DraTimers.class);

  private final ScheduledExecutorService timers;

  private DraTimers(ScheduledExecutorService timers) {
    this.timers = timers;
  }

  /**
   * Runs {@code recovery} every {@code recoveryEvery}, {@code claimCheck} every {@code checkEvery}.
   */
  static DraTimers start(
      Duration recoveryEvery, Runnable recovery, Duration checkEvery, Runnable claimCheck) {
    var timers =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("migd-dra-timers").daemon().factory());
    every(timers, recoveryEvery, "recovering tainted devices", recovery);
    every(timers, checkEvery, "checking prepared claims against the API server", claimCheck);
    return new DraTimers(timers);
  }

  private static void every(
      ScheduledExecutorService timers, Duration period, String doing, Runnable work) {
    long millis = period.toMillis();
    timers.scheduleWithFixedDelay(
        () -> {
          try {
            work.run();
          } catch (RuntimeException e) {
            log.warn("{} failed; the next run tries again", doing, e);
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    timers.shutdownNow();
  }
}
