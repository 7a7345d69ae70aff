package io.migd.app;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one poll every {@code every} on a thread of its own (a live file, DESIGN section 13). A poll
 * that throws is logged and the next one still runs.
 */
final class PeriodicPoll implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PeriodicPoll.class);

  private final String what;
  private final Duration every;
  private final Runnable once;
  private final ScheduledExecutorService poller;

  /**
   * @param thread the thread's name
   * @param what what a poll does, for the log ({@code reading migd.config-file again})
   */
  PeriodicPoll(String thread, String what, Duration every, Runnable once) {
    this.what = what;
    this.every = every;
    this.once = once;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name(thread).daemon().factory());
  }

  void start() {
    poller.scheduleWithFixedDelay(
        this::pollOnce, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void pollOnce() {
    try {
      once.run();
    } catch (RuntimeException e) {
      log.error("{} failed; the next poll tries again", what, e);
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
