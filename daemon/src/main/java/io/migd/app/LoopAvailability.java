package io.migd.app;

import io.migd.reconcile.ReconcileLoop;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The reconcile loop's health as Spring Boot availability. Readiness: Spring Boot turns the
 * application ready after its runners, and this runner waits for the loop's first outcome, so
 * {@code /actuator/health/readiness} stays 503 until the first reconcile ended. Liveness: a
 * watchdog publishes {@link LivenessState#BROKEN} when no run has completed for {@code
 * migd.health.liveness-timeout} and {@link LivenessState#CORRECT} once one completes again.
 */
final class LoopAvailability implements ApplicationRunner, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LoopAvailability.class);

  private final ReconcileLoop loop;
  private final ApplicationEventPublisher events;
  private final ApplicationAvailability availability;
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-liveness").daemon(true).factory());

  LoopAvailability(
      ReconcileLoop loop,
      ApplicationEventPublisher events,
      ApplicationAvailability availability,
      Duration livenessTimeout) {
    this.loop = loop;
    this.events = events;
    this.availability = availability;
    long every = Math.clamp(livenessTimeout.toMillis() / 5, 10, 1000);
    watchdog.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
  }

  @Override
  public void run(ApplicationArguments args) throws InterruptedException {
    while (loop.awaitFirstOutcome(Duration.ofMinutes(1)).isEmpty()) {
      log.info("waiting for the first reconcile to end before turning ready");
    }
  }

  private void check() {
    try {
      boolean now = loop.isLive();
      LivenessState state = now ? LivenessState.CORRECT : LivenessState.BROKEN;
      // compared with what Spring Boot holds, not with the last published state: Boot publishes
      // CORRECT itself once the context has started, which may come after an early BROKEN
      if (availability.getLivenessState() == state) {
        return;
      }
      if (now) {
        log.info("liveness=UP a reconcile completed again");
      } else {
        log.error("liveness=DOWN no reconcile has completed within the liveness timeout");
      }
      AvailabilityChangeEvent.publish(events, this, state);
    } catch (Throwable e) {
      log.error("liveness check failed error=\"{}\"", e.toString(), e);
    }
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }
}
