package io.migd.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link Reconciler} on one thread: at start, whenever {@link #trigger()} is called
 * (triggers that arrive while a run is under way or waiting collapse into one run), every resync
 * period, and after a run that did not reach the target, with backoff. It never asks what the
 * trigger was. A run that throws anything is logged with its stack and retried with backoff: the
 * thread ends only on {@link #close()}. Each outcome goes to the {@link OutcomeListeners}, each of
 * which fails on its own; a listener that threw makes the loop retry with backoff, but the run has
 * completed all the same. {@link #isLive()} turns false when no run has completed for the liveness
 * timeout.
 */
public final class ReconcileLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReconcileLoop.class);

  private final Reconciler reconciler;
  private final Supplier<Desired> intent;
  private final ReconcileSettings settings;
  private final OutcomeListeners listeners;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final Thread thread;
  private boolean triggered = true;
  private boolean stopping;
  private Outcome last;
  private int failures;
  private long lastCompletedNanos = System.nanoTime();

  /**
   * A loop over a reconciler; {@code intent} gives the current intent at each run, {@code
   * listeners} are told of each outcome.
   */
  public ReconcileLoop(
      Reconciler reconciler,
      Supplier<Desired> intent,
      ReconcileSettings settings,
      OutcomeListeners listeners) {
    this.reconciler = reconciler;
    this.intent = intent;
    this.settings = settings;
    this.listeners = listeners;
    this.thread = Thread.ofPlatform().name("migd-reconciler").daemon(true).unstarted(this::run);
  }

  /** A loop telling {@code listeners} in this order ({@link OutcomeListeners#of}). */
  public ReconcileLoop(
      Reconciler reconciler,
      Supplier<Desired> intent,
      ReconcileSettings settings,
      List<OutcomeListener> listeners) {
    this(reconciler, intent, settings, OutcomeListeners.of(listeners));
  }

  /** Starts the loop; the first run starts at once. */
  public void start() {
    lock.lock();
    try {
      lastCompletedNanos = System.nanoTime();
    } finally {
      lock.unlock();
    }
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

  /**
   * Whether a run has completed (or the loop started) within the liveness timeout. A run completes
   * when the reconciler returned an outcome and the listeners were told of it, whether or not one
   * of them threw (each is logged and counted on its own); an ordinary backoff or resync wait never
   * exceeds the timeout.
   */
  public boolean isLive() {
    lock.lock();
    try {
      return System.nanoTime() - lastCompletedNanos < settings.livenessTimeout().toNanos();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the first run has ended, or the timeout passes. */
  public Optional<Outcome> awaitFirstOutcome(Duration timeout) throws InterruptedException {
    lock.lock();
    try {
      return awaitLocked(() -> last != null, timeout);
    } finally {
      lock.unlock();
    }
  }

  /** Waits until a run that started after this call has ended, or the timeout passes. */
  public Optional<Outcome> awaitNextOutcome(Duration timeout) throws InterruptedException {
    lock.lock();
    try {
      Outcome before = last;
      triggered = true;
      wake.signalAll();
      return awaitLocked(() -> last != before && !triggered, timeout);
    } finally {
      lock.unlock();
    }
  }

  /** With the lock held: waits for {@code ended}, then gives the last outcome. */
  private Optional<Outcome> awaitLocked(BooleanSupplier ended, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ended.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return Optional.empty();
      }
      wake.awaitNanos(left);
    }
    return Optional.of(last);
  }

  private void run() {
    while (awaitTurn()) {
      try {
        runOnce();
      } catch (Throwable e) {
        // runOnce catches per stage; this guards the loop itself against whatever escapes that
        log.error("reconcile loop iteration failed error=\"{}\"", e.toString(), e);
        recordFailure();
      }
    }
    log.info("reconcile loop stopped");
  }

  /** Waits for a trigger or the delay after the last run; false once the loop is closing. */
  private boolean awaitTurn() {
    lock.lock();
    try {
      Duration wait = last == null ? Duration.ZERO : settings.delayAfter(failures);
      long deadline = System.nanoTime() + wait.toNanos();
      while (!triggered && !stopping) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          wake.awaitNanos(left);
        } catch (InterruptedException e) {
          // only close() ends the loop; an interrupt from elsewhere is not a reason to die
          Thread.interrupted();
        }
      }
      if (stopping) {
        return false;
      }
      triggered = false;
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void runOnce() {
    long generation = -1;
    Outcome outcome;
    boolean completed = true;
    Desired desired = null;
    try {
      desired = intent.get();
      generation = desired.generation();
      outcome = reconciler.reconcile(desired);
    } catch (Throwable e) {
      log.error("reconcile failed generation={} error=\"{}\"", generation, e.toString(), e);
      outcome = Outcome.failed(generation, "reconcile failed: " + e, Instant.now());
      completed = false;
    }
    boolean told = true;
    if (desired != null) {
      try {
        told = listeners.tell(desired, outcome);
      } catch (Throwable e) {
        // tell() catches per listener; this guards against whatever escapes that
        log.error("outcome listeners failed generation={} error=\"{}\"", generation, e, e);
        told = false;
      }
    }
    lock.lock();
    try {
      failures = completed && told && outcome.succeeded() ? 0 : failures + 1;
      last = outcome;
      if (completed) {
        lastCompletedNanos = System.nanoTime();
      }
      wake.signalAll();
    } finally {
      lock.unlock();
    }
    if (!completed || !told || !outcome.succeeded()) {
      log.info(
          "reconcile did not reach the target state={} retry_in={} reason=\"{}\"",
          completed ? outcome.state().wireName() : "failed",
          settings.delayAfter(failures),
          completed
              ? (told ? outcome.reason() : "a listener failed (see above)")
              : "the run threw (see above)");
    }
  }

  private void recordFailure() {
    lock.lock();
    try {
      failures++;
      wake.signalAll();
    } finally {
      lock.unlock();
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
