package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReleasedException;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
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
 * The plumbing under {@link FfmNvml}: the session gate, the return-code check, timing and the small
 * marshalling helpers. The typed calls are split by subject over the classes of the chain
 * FfmNvmlCalls, FfmNvmlDevices, FfmNvmlMetrics, FfmNvmlInstances, FfmNvml (the way jextract splits
 * a large header).
 *
 * <p>NVML is thread-safe, so calls run on the caller's thread, several at once, and an error is
 * thrown with the caller's frames. They share a session gate: a call holds its shared side, and
 * {@link #whileReleased} and {@link #close} take the exclusive side, so calls in flight end before
 * NVML shuts down and new ones wait until it is initialised again. The re-initialisation hooks run
 * while the releasing thread still holds the exclusive side (a ReentrantReadWriteLock lets its
 * holder take the shared side too, so they can call NVML), so event sets are registered again
 * before the held calls resume. The blocking event wait keeps a thread of its own, so a health
 * event is never behind a caller's call.
 */
abstract class FfmNvmlCalls implements Nvml {
  private static final Logger log = LoggerFactory.getLogger(FfmNvmlCalls.class);
  static final int NAME_BUFFER = 96;
  static final int VERSION_BUFFER = 80;
  static final int GI_PROFILE_COUNT = 18;
  static final int CI_PROFILE_COUNT = 9;
  static final int MAX_COMPUTE_INSTANCES_PER_GI = 16;
  static final int GPM_VERSION = 1;

  final nvml_h raw;
  private final NvmlCallObserver observer;
  final ExecutorService events;
  private final ReentrantReadWriteLock session = new ReentrantReadWriteLock();
  private final List<Runnable> reinitialised = new CopyOnWriteArrayList<>();
  private volatile boolean closed;
  private final AtomicLong nanosInNvml = new AtomicLong();

  /* a timed call made inside another timed call (a typed call built on another) counts once */
  private final ThreadLocal<int[]> timedDepth = ThreadLocal.withInitial(() -> new int[1]);

  FfmNvmlCalls(NvmlLibrary library, NvmlCallObserver observer) {
    this.raw = library.raw;
    this.observer = observer;
    String name = "nvml-" + library.location().replaceAll(".*/", "");
    this.events =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(name + "-events").daemon(true).factory());
  }

  /**
   * Time spent in calls of this session (the native call and its marshalling), so benchmarks can
   * tell migd's own time from the driver's. Calls run on their callers' threads, several at once:
   * this is the sum over all threads, so with calls in parallel it can exceed the wall-clock time.
   * The event wait is not counted.
   */
  public Duration timeInNvml() {
    return Duration.ofNanos(nanosInNvml.get());
  }

  // ---- plumbing

  void run(Runnable body) {
    onCallThread(
        () -> {
          body.run();
          return null;
        });
  }

  /** One typed call: under the shared side of the session gate, timed into {@link #timeInNvml}. */
  <T> T onCallThread(Callable<T> body) {
    return shared(body, true);
  }

  @Override
  public <T> T inSequence(Supplier<T> body) {
    return shared(body::get, false);
  }

  @Override
  public <T> T inSequence(Duration maxWait, Supplier<T> body) {
    Lock shared = session.readLock();
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
    if (session.getReadHoldCount() > 0) {
      // the exclusive side would wait for this thread's own shared hold for ever
      throw new IllegalStateException(
          "NVML cannot be released inside a sequence of NVML calls (inSequence)");
    }
    Lock exclusive = session.writeLock();
    acquire(exclusive);
    try {
      ensureOpen();
      int shutdown = raw.nvmlShutdown();
      // after an init that failed, NVML is already down: releasing it again must still let the
      // action run and NVML initialise again, or a failed re-init could never be retried
      if (shutdown != NvmlReturn.UNINITIALIZED.code()) {
        check("nvmlShutdown", shutdown);
      }
      try {
        return action.get();
      } finally {
        check("nvmlInit_v2", raw.nvmlInit_v2());
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

  /**
   * Runs {@code body} on this thread under the shared side of the session gate. Only leaf calls are
   * timed into {@link #timeInNvml()}, so a sequence does not count migd's own work between its
   * calls.
   */
  private <T> T shared(Callable<T> body, boolean timed) {
    Lock shared = session.readLock();
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

  /** Runs {@code body} on the event thread, under the shared side of the session gate. */
  <T> T onEventThread(Callable<T> body) {
    ensureOpen();
    if (session.isWriteLockedByCurrentThread()) {
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

  static <T> T callUnchecked(Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reports the call and throws unless it succeeded; returns the code for callers that branch. */
  NvmlReturn check(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    if (result != NvmlReturn.SUCCESS) {
      throw new NvmlException(function, result, "");
    }
    return result;
  }

  /** Reports the call and returns its code without throwing. */
  NvmlReturn observe(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    return result;
  }

  static NvmlException failure(String function, NvmlReturn code) {
    return new NvmlException(function, code, "");
  }

  static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  static MemorySegment dev(DeviceHandle d) {
    return ptr(d.address());
  }

  static String cString(MemorySegment buffer) {
    long size = buffer.byteSize();
    int length = 0;
    while (length < size && buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, length) != 0) {
      length++;
    }
    byte[] bytes = new byte[length];
    MemorySegment.copy(buffer, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes, 0, length);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static InstancePlacement placement(int start, int size) {
    return new InstancePlacement(start, size);
  }

  interface IntOut {
    int call(MemorySegment out);
  }

  int readInt(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            check(function, call.call(out));
            return out.get(JAVA_INT, 0);
          }
        });
  }

  long readAddress(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(function, call.call(out));
            return out.get(ADDRESS, 0).address();
          }
        });
  }

  // ---- lifecycle

  @Override
  public void close() {
    Lock exclusive = session.writeLock();
    exclusive.lock();
    try {
      if (closed) {
        return;
      }
      try {
        check("nvmlShutdown", raw.nvmlShutdown());
      } finally {
        closed = true;
        shutdownThreads();
      }
    } finally {
      exclusive.unlock();
    }
  }

  final void shutdownThreads() {
    events.shutdownNow();
  }
}
