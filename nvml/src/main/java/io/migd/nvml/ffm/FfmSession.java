package io.migd.nvml.ffm;

import io.migd.nvml.NvmlReleasedException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.NvmlSessionControl;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session gate of one loaded library. NVML is thread-safe, so calls run on the caller's thread,
 * several at once, and an error is thrown with the caller's frames. A call holds the gate's shared
 * side; {@link #whileReleased} and {@link #close} take the exclusive side, so calls in flight end
 * before NVML shuts down and new ones wait until it is initialised again. The re-initialisation
 * hooks run while the releasing thread still holds the exclusive side (a ReentrantReadWriteLock
 * lets its holder take the shared side too, so they can call NVML), so event sets are registered
 * again before the held calls resume. The blocking event wait keeps a thread of its own, so a
 * health event is never behind a caller's call.
 */
final class FfmSession implements NvmlSessionControl {
  private static final Logger log = LoggerFactory.getLogger(FfmSession.class);

  private final nvml_h raw;
  private final ReturnCodes codes;
  private final ExecutorService events;
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  private final List<Runnable> reinitialised = new CopyOnWriteArrayList<>();
  private volatile boolean closed;
  private final AtomicLong nanosInNvml = new AtomicLong();

  /* a timed call made inside another timed call (a typed call built on another) counts once */
  private final ThreadLocal<int[]> timedDepth = ThreadLocal.withInitial(() -> new int[1]);

  FfmSession(nvml_h raw, ReturnCodes codes, String name) {
    this.raw = raw;
    this.codes = codes;
    this.events =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(name + "-events").daemon(true).factory());
  }

  /** Initialises NVML ({@code nvmlInit_v2}); on failure the event thread is stopped. */
  void open() {
    try {
      call(() -> codes.check("nvmlInit_v2", raw.nvmlInit_v2()));
    } catch (RuntimeException e) {
      events.shutdownNow();
      throw e;
    }
  }

  /** See {@code FfmNvml.timeInNvml()}. */
  Duration timeInNvml() {
    return Duration.ofNanos(nanosInNvml.get());
  }

  /**
   * One typed call on this thread, under the shared side of the gate, timed into {@link
   * #timeInNvml}. Only the outermost call is timed, so a sequence does not count migd's own work
   * between its calls.
   */
  <T> T call(Callable<T> body) {
    return shared(body, true);
  }

  @Override
  public <T> T inSequence(Supplier<T> body) {
    return shared(body::get, false);
  }

  @Override
  public <T> T inSequence(Duration maxWait, Supplier<T> body) {
    Lock shared = gate.readLock();
    try {
      // a thread already in a sequence holds the shared side: taking it again never waits
      if (!shared.tryLock(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new NvmlReleasedException(maxWait);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for NVML", e);
    }
    try {
      return shared(body::get, false);
    } finally {
      shared.unlock();
    }
  }

  @Override
  public <T> T whileReleased(Supplier<T> action) {
    if (gate.getReadHoldCount() > 0) {
      // the exclusive side would wait for this thread's own shared hold for ever
      throw new IllegalStateException(
          "NVML cannot be released inside a sequence of NVML calls (inSequence)");
    }
    Lock exclusive = gate.writeLock();
    acquire(exclusive);
    try {
      ensureOpen();
      int shutdown = raw.nvmlShutdown();
      // after an init that failed, NVML is already down: releasing it again must still let the
      // action run and NVML initialise again, or a failed re-init could never be retried
      if (shutdown != NvmlReturn.UNINITIALIZED.code()) {
        codes.check("nvmlShutdown", shutdown);
      }
      try {
        return action.get();
      } finally {
        codes.check("nvmlInit_v2", raw.nvmlInit_v2());
        runReinitialisedHooks();
      }
    } finally {
      exclusive.unlock();
    }
  }

  @Override
  public Registration onReinitialised(Runnable hook) {
    // a wrapper per call, so adding the same hook twice and closing one removes only that one
    Runnable added = hook::run;
    reinitialised.add(added);
    return () -> reinitialised.remove(added);
  }

  private void runReinitialisedHooks() {
    for (Runnable hook : reinitialised) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        // the reset itself succeeded: the hook's owner is left to recover on its own
        log.error("a hook after NVML was initialised again failed", e);
      }
    }
  }

  private <T> T shared(Callable<T> body, boolean timed) {
    Lock shared = gate.readLock();
    acquire(shared);
    try {
      ensureOpen();
      int[] depth = timedDepth.get();
      if (!timed || depth[0] > 0) {
        return callUnchecked(body);
      }
      depth[0]++;
      long start = System.nanoTime();
      try {
        return callUnchecked(body);
      } finally {
        nanosInNvml.addAndGet(System.nanoTime() - start);
        depth[0]--;
      }
    } finally {
      shared.unlock();
    }
  }

  /** Runs {@code body} on the event thread, under the shared side of the gate. */
  <T> T onEventThread(Callable<T> body) {
    ensureOpen();
    if (gate.isWriteLockedByCurrentThread()) {
      // the event thread would wait for the shared side this thread holds exclusively
      throw new IllegalStateException("no NVML event wait while NVML is released");
    }
    Future<T> future = events.submit(() -> shared(body, false));
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(false);
      throw new IllegalStateException("interrupted while waiting for an NVML event", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static void acquire(Lock lock) {
    try {
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for NVML", e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("NVML was shut down");
    }
  }

  private static <T> T callUnchecked(Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    Lock exclusive = gate.writeLock();
    exclusive.lock();
    try {
      if (closed) {
        return;
      }
      try {
        codes.check("nvmlShutdown", raw.nvmlShutdown());
      } finally {
        closed = true;
        events.shutdownNow();
      }
    } finally {
      exclusive.unlock();
    }
  }
}
