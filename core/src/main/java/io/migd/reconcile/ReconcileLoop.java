package io.migd.reconcile;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link Reconciler} on one thread: at start, whenever {@link #trigger()} is called
 * (triggers that arrive while a run is under way or waiting collapse into one run), every resync
 * period, and after a run that did not reach the target, with backoff. It never asks what the
 * trigger was.
 */
public final class ReconcileLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReconcileLoop.class);

  private final Reconciler reconciler;
  private final Supplier<Desired> intent;
  private final ReconcileSettings settings;
  private final List<OutcomeListener> listeners;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final Thread thread;
  private boolean triggered = true;
  private boolean stopping;
  private Outcome last;
  private int failures;

  /** A loop over a reconciler; {@code intent} gives the current intent at each run. */
  public ReconcileLoop(
      Reconciler reconciler,
      Supplier<Desired> intent,
      ReconcileSettings settings,
      List<OutcomeListener> listeners) {
    this.reconciler = reconciler;
    this.intent = intent;
    this.settings = settings;
    this.listeners = List.copyOf(listeners);
    this.thread = Thread.ofPlatform().name("migd-reconciler").daemon(true).unstarted(this::run);
  }

  /** Starts the loop; the first run starts at once. */
  public void start() {
    thread.start();
  }

  /** Asks for a run as soon as possible. */
  public void trigger() {
    lock.lock();
    try {
      triggered = true;
      wake.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The last outcome, empty until the first run ends. */
  public Optional<Outcome> lastOutcome() {
    lock.lock();
    try {
      return Optional.ofNullable(last);
    } finally {
      lock.unlock();
    }
  }

  /** Waits until a run that started after this call has ended, or the timeout passes. */
  public Optional<Outcome> awaitNextOutcome(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      Outcome before = last;
      triggered = true;
      wake.signalAll();
      while (last == before || triggered) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        wake.awaitNanos(left);
      }
      return Optional.of(last);
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    while (true) {
      lock.lock();
      try {
        Duration wait = last == null ? Duration.ZERO : settings.delayAfter(last, failures);
        long deadline = System.nanoTime() + wait.toNanos();
        while (!triggered && !stopping) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          wake.awaitNanos(left);
        }
        if (stopping) {
          return;
        }
        triggered = false;
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      runOnce();
    }
  }

  private void runOnce() {
    Desired desired = intent.get();
    Outcome outcome;
    try {
      outcome = reconciler.reconcile(desired);
    } catch (RuntimeException e) {
      log.error(
          "reconcile failed generation={} error=\"{}\"", desired.generation(), e.toString(), e);
      outcome =
          Outcome.failed(desired.generation(), "reconcile failed: " + e, java.time.Instant.now());
    }
    for (OutcomeListener listener : listeners) {
      try {
        listener.reconciled(desired, outcome);
      } catch (RuntimeException e) {
        log.warn("outcome listener failed listener={} error=\"{}\"", listener, e.toString());
      }
    }
    lock.lock();
    try {
      failures = outcome.succeeded() ? 0 : failures + 1;
      last = outcome;
      wake.signalAll();
    } finally {
      lock.unlock();
    }
    if (!outcome.succeeded()) {
      log.info(
          "reconcile did not reach the target state={} retry_in={} reason=\"{}\"",
          outcome.state().wireName(),
          settings.delayAfter(outcome, failures),
          outcome.reason());
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      stopping = true;
      wake.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
